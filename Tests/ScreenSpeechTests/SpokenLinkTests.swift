import FocusEngine
import Foundation
import ScreenCore
import ScreenSpeech
import TestSupport
import Testing

/// The broker link through speech: a lost link and its return are each said once.
@Suite("The broker link spoken")
struct SpokenLinkTests {
  static let lost = "The broker is unreachable. Input cannot work until it is back"
  static let back = "The broker is back. Input works again"

  @Test(
    "speech: the lost link and its return are spoken, once each",
    .enabled(if: Speech.espeak != nil || Speech.required, "needs espeak-ng (scripts/bootstrap)"))
  func spoken() throws {
    let directory = try TemporaryDirectory()
    let espeak = try #require(Speech.espeak, "espeak-ng is not installed")
    let events = SpeakerTests.Events()
    let speaker = Speaker(
      voice: .wavFiles(espeak: espeak, directory: directory.path), onEvent: events.append)
    let renderer = SpeechRenderer(speaker: speaker)
    defer { renderer.stop() }
    // Reached as the screen's loop reaches it: a renderer that shows the link.
    let display = try #require(renderer as Any as? any LinkDisplay, "speech shows no link")
    try display.showLink(.lost)
    try display.showLink(.up)
    let seen = try events.wait("both utterances to finish") {
      $0.filter { if case .finished(_, 0, nil) = $0 { true } else { false } }.count == 2
    }
    let spoken = seen.compactMap { event -> String? in
      if case .started(_, _, let text) = event { text } else { nil }
    }
    #expect(spoken == [Self.lost, Self.back], "\(seen)")
  }
}
