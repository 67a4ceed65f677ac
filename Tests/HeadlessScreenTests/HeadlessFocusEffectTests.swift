import FocusEngine
import Foundation
import HeadlessScreen
import ScreenCore
import TestSupport
import Testing

/// The focus effects in the headless renderer's JSON lines.
@Suite("Focus effects in headless frames")
struct HeadlessFocusEffectTests {
  @Test("headless JSON: every item's effect and the focused item's effect and radius")
  func headless() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "frames-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: path) }
    let renderer = try HeadlessRenderer(path: path.path)
    try renderer.render(ScreenFrames.focusEffect(.halo, radius: 12, navigation: .ipados))
    var nothing = ScreenFrames.focusEffect(nil)
    nothing.focused = nil
    try renderer.render(nothing)
    let lines = try String(contentsOf: path, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2)
    let first = try #require(
      JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    #expect(first["effects"] as? [String: String] == ["a": "halo", "b": "halo"])
    let focus = try #require(first["focusEffect"] as? [String: Any])
    #expect(focus["item"] as? String == "a" && focus["effect"] as? String == "halo")
    #expect(focus["cornerRadius"] as? Double == 12)
    let second = try #require(
      JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
    #expect(second["effects"] as? [String: String] == ["a": "lift", "b": "lift"])
    #expect(second["focusEffect"] is NSNull)
  }
}
