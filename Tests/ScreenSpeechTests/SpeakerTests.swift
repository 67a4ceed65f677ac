import FocusEngine
import Foundation
import ScreenCore
import ScreenSpeech
import TestSupport
import Testing

/// The speaker with real espeak-ng processes writing WAV files: what it says is sound, and a
/// newer focus cuts off the older utterance.
@Suite(
  "Speech through espeak-ng", .serialized, .enabled(if: Speech.espeak != nil || Speech.required))
struct SpeakerTests {

  /// The speaker's events, awaited with a deadline.
  final class Events: @unchecked Sendable {
    // @unchecked Sendable is sound: `list` is touched only under `condition`'s lock.
    private let condition = NSCondition()
    private var list: [Speaker.Event] = []

    func append(_ event: Speaker.Event) {
      condition.lock()
      list.append(event)
      condition.broadcast()
      condition.unlock()
    }

    /// The events once `done` holds for them (at most 60 s).
    func wait(_ what: String, until done: ([Speaker.Event]) -> Bool) throws -> [Speaker.Event] {
      let deadline = Date().addingTimeInterval(60)
      condition.lock()
      defer { condition.unlock() }
      while !done(list) {
        guard condition.wait(until: deadline) else {
          throw ChildProcessError(description: "timed out waiting for \(what): \(list)")
        }
      }
      return list
    }
  }

  /// The peak amplitude and length in seconds of a 16-bit PCM WAV file.
  static func measure(_ path: String) throws -> (peak: Int, seconds: Double) {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    func word(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    func long(_ at: Int) -> Int { word(at) | word(at + 2) << 16 }
    #expect(bytes.count > 44 && String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF")
    var offset = 12
    var rate = 0
    while offset + 8 <= bytes.count {
      let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
      let size = long(offset + 4)
      if id == "fmt " { rate = long(offset + 12) }
      if id == "data" {
        let end = min(bytes.count, offset + 8 + size)
        var peak = 0
        var at = offset + 8
        while at + 1 < end {
          peak = max(peak, abs(Int(Int16(bitPattern: UInt16(word(at))))))
          at += 2
        }
        return (peak, Double((end - offset - 8) / 2) / Double(max(rate, 1)))
      }
      offset += 8 + size
    }
    throw ChildProcessError(description: "\(path): no data chunk")
  }

  static func announcement(_ text: String, interrupt: Bool = true) -> Announcement {
    Announcement(parts: [AnnouncementPart(.label, text)], interrupt: interrupt)
  }

  @Test("an announcement is spoken into a WAV file that is not silence")
  func speaks() throws {
    let directory = try TemporaryDirectory()
    let espeak = try #require(Speech.espeak, "espeak-ng is not installed")
    let events = Events()
    let speaker = Speaker(
      voice: .wavFiles(espeak: espeak, directory: directory.path), onEvent: events.append)
    defer { speaker.stop() }
    let number = speaker.say(Self.announcement("Trending, Quiet Hours, button, 3 of 11"))
    let seen = try events.wait("the utterance to finish") {
      $0.contains { if case .finished(number, _, _) = $0 { true } else { false } }
    }
    #expect(seen.contains(.finished(number: number, status: 0, signal: nil)), "\(seen)")
    let sound = try Self.measure("\(directory.path)/utterance-\(number).wav")
    #expect(sound.peak > 1000, "the WAV is silent: peak \(sound.peak)")
    #expect(sound.seconds > 0.5, "the WAV is too short for the sentence: \(sound.seconds) s")
  }

  @Test(
    "a newer focus ends the older utterance's process before it finishes; other announcements wait their turn"
  )
  func interrupts() throws {
    let directory = try TemporaryDirectory()
    let espeak = try #require(Speech.espeak, "espeak-ng is not installed")
    let events = Events()
    let speaker = Speaker(
      voice: .wavFiles(espeak: espeak, directory: directory.path), onEvent: events.append)
    defer { speaker.stop() }
    // Long enough that it cannot be rendered in the moment between its start and the interrupt.
    let long = Array(repeating: "Old Roads, Silver Screen, Golden Hour, Last Reel", count: 400)
      .joined(separator: ", ")
    let first = speaker.say(Self.announcement(long))
    _ = try events.wait("the first utterance to start") {
      $0.contains { if case .started(first, _, _) = $0 { true } else { false } }
    }
    let second = speaker.say(Self.announcement("Quiet Hours, button, 3 of 11"))
    let third = speaker.say(Self.announcement("activated", interrupt: false))
    let seen = try events.wait("the third utterance to finish") {
      $0.contains { if case .finished(third, _, _) = $0 { true } else { false } }
    }
    Speech.expectInterrupted(seen, first: first, second: second, third: third)
    #expect(try Self.measure("\(directory.path)/utterance-\(second).wav").peak > 1000)
  }
}

/// Where the speech program is.
enum Speech {
  /// espeak-ng's path, or nil when it is not installed (`scripts/bootstrap` installs it).
  static let espeak: String? =
    FileManager.default.isExecutableFile(atPath: "/usr/bin/espeak-ng") ? "/usr/bin/espeak-ng" : nil
  /// In CI (`scripts/test` sets it) a missing program fails instead of skipping.
  static let required = ProcessInfo.processInfo.environment["TENFOOT_REQUIRE_BROWSER"] == "1"

  /// What an interruption must give, in the speaker's events: the first utterance ended by
  /// SIGTERM before the second (interrupting) one started, and the second spoken to its end
  /// before the third (queued behind it, not interrupting) started and ended.
  static func expectInterrupted(
    _ seen: [Speaker.Event], first: Int, second: Int, third: Int,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      seen.contains(.finished(number: first, status: nil, signal: SIGTERM)),
      "the older utterance was not terminated: \(seen)", sourceLocation: sourceLocation)
    func index(_ match: (Speaker.Event) -> Bool) -> Int { seen.firstIndex(where: match) ?? -1 }
    let firstEnded = index { if case .finished(first, _, _) = $0 { true } else { false } }
    let secondStarted = index { if case .started(second, _, _) = $0 { true } else { false } }
    let secondEnded = index { $0 == .finished(number: second, status: 0, signal: nil) }
    let thirdStarted = index { if case .started(third, _, _) = $0 { true } else { false } }
    #expect(
      firstEnded >= 0 && firstEnded < secondStarted, "\(seen)", sourceLocation: sourceLocation)
    #expect(
      secondEnded >= 0 && secondEnded < thirdStarted, "the third cut in: \(seen)",
      sourceLocation: sourceLocation)
    #expect(
      seen.contains(.finished(number: third, status: 0, signal: nil)), "\(seen)",
      sourceLocation: sourceLocation)
  }
}
