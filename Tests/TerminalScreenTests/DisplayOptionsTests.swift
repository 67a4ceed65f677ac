import CatalogDemo
import FocusEngine
import ScreenCore
import TerminalScreen
import TerminalUI
import TestSupport
import Testing

/// Reduced motion rests the parallax in the frames a screen renders; larger text gives
/// titles the rows their boxes have.
@Suite("Display options: reduced motion and larger text")
struct DisplayOptionsTests {
  static func tilted() -> ScreenFrame {
    let layout = CatalogApp().homeLayout
    var frame = ScreenFrame(
      screen: "main", epoch: 1, seq: 3, layout: layout, focused: "upnext-1",
      states: TerminalModalTests.states(layout, focused: "upnext-1"), lastEvent: nil)
    frame.parallax = Parallax(
      item: "upnext-1", rotateX: -2, rotateY: 4, scale: 1.1,
      translate: [Point(x: 1.6, y: 0), Point(x: 4, y: -1), Point(x: 6.4, y: -2)],
      shadow: Parallax.shadow(for: .focused), specular: Point(x: 0.18, y: 0.66))
    return frame
  }

  @Test("reduced motion: no tilt, no layer shift, the specular centred; scale and shadow kept")
  func parallaxAtRest() throws {
    let frame = Self.tilted()
    let rested = DisplayOptions(reduceMotion: true).apply(to: frame)
    let parallax = try #require(rested.parallax)
    #expect(parallax.rotateX == 0 && parallax.rotateY == 0)
    #expect(parallax.translate == [.zero, .zero, .zero])
    #expect(parallax.specular == Point(x: 0.5, y: 0.5))
    #expect(parallax.scale == 1.1 && parallax.shadow == frame.parallax?.shadow)
    #expect(parallax.item == "upnext-1")
    var others = rested
    others.parallax = frame.parallax
    #expect(others == frame, "nothing else in the frame changes")
    #expect(
      DisplayOptions().apply(to: frame) == frame, "without the option frames pass as they are")
    // The terminal's status line shows no tilt, and the title is not shifted.
    let grid = TerminalRenderer.compose(rested, columns: 120, rows: 40, colorMode: .monochrome)
    let status = grid.rowText(38)
    #expect(!status.contains("tilt"), "\(status)")
    let moving = TerminalRenderer.compose(frame, columns: 120, rows: 40, colorMode: .monochrome)
    #expect(moving.rowText(38).contains("tilt"), "the tilted frame does show its tilt")
  }

  @Test("larger text: titles wrap onto their boxes' rows instead of being cut (snapshot 80×24)")
  func largeText() throws {
    let layout = CatalogApp().homeLayout
    let frame = ScreenFrame(
      screen: "main", epoch: 1, seq: 1, layout: layout, focused: "upnext-1",
      states: TerminalModalTests.states(layout, focused: "upnext-1"), lastEvent: nil)
    let normal = TerminalRenderer.compose(frame, columns: 80, rows: 24, colorMode: .monochrome)
    let large = TerminalRenderer.compose(
      frame, columns: 80, rows: 24, colorMode: .monochrome,
      display: DisplayOptions(textSize: .large))
    let normalText = normal.lines().joined(separator: "\n")
    let largeText = large.lines().joined(separator: "\n")
    let normalRow = try #require(normal.lines().first { $0.contains("The Long") })
    #expect(normalRow.contains("The Long F…"), "normal cuts the title:\n\(normalText)")
    #expect(!largeText.contains("The Long F…"), "large does not:\n\(largeText)")
    let lines = large.lines()
    let row = try #require(lines.firstIndex { $0.contains("The Long ") })
    #expect(lines[row + 1].contains("Field"), "the rest on the next row:\n\(largeText)")
    #expect(largeText.contains("Silver") && !largeText.contains("Silver Sc…"))
    if let problem = TextSnapshot.mismatch(largeText, named: "large-text-80x24") {
      Issue.record(Comment(rawValue: problem))
    }
  }
}
