import FocusEngine
import Foundation
import HeadlessScreen
import ScreenCore
import TestSupport
import Testing

/// The broker link in the headless renderer's JSON lines: each link line carries the words
/// ``BrokerLink/announcement`` gives.
@Suite("The broker link in headless frames")
struct HeadlessLinkTests {
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
}
