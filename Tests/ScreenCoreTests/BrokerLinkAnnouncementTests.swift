import FocusEngine
import Foundation
import HeadlessScreen
import ScreenCore
import ScreenSpeech
import TestSupport
import Testing

/// The broker link on the screen's announcement channel: a lost link and its return are each
/// said once, in the headless link lines and through speech, with the words
/// ``BrokerLink/announcement`` gives.
@Suite("The broker link announced")
struct BrokerLinkAnnouncementTests {
  static let lost = "The broker is unreachable. Input cannot work until it is back"
  static let back = "The broker is back. Input works again"

  @Test("the words: what happened, then what it means for input; a lost link interrupts")
  func words() {
    #expect(BrokerLink.lost.announcement.text == Self.lost)
    #expect(BrokerLink.lost.announcement.interrupt)
    #expect(BrokerLink.up.announcement.text == Self.back)
    #expect(!BrokerLink.up.announcement.interrupt)
  }

  @Test("headless: each link line carries its announcement, in a frame's shape")
  func headless() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/frames.jsonl"
    let renderer = try HeadlessRenderer(path: path)
    try renderer.showLink(.lost)
    try renderer.showLink(.up)
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    #expect(
      lines == [
        #"{"announcement":{"interrupt":true,"parts":[{"kind":"value","text":"The broker is unreachable"},{"kind":"hint","text":"Input cannot work until it is back"}],"text":"The broker is unreachable. Input cannot work until it is back"},"link":"lost"}"#,
        #"{"announcement":{"interrupt":false,"parts":[{"kind":"value","text":"The broker is back"},{"kind":"hint","text":"Input works again"}],"text":"The broker is back. Input works again"},"link":"up"}"#,
      ])
  }

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
