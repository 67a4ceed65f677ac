import FocusEngine
import Foundation
import HeadlessScreen
import TerminalUI
import TestSupport
import Testing

@testable import SVGScreen
@testable import ScreenCore
@testable import TerminalScreen

/// The halo and highlight focus effects in the terminal, SVG and headless renderers.
@Suite("Focus effects in the renderers")
struct FocusEffectRendererTests {
  /// Two cards side by side on a 600×260 canvas; "a" is focused.
  static func frame(
    _ effect: FocusEffectStyle?, radius: Double? = nil, navigation: NavigationModel = .tvos,
    state: FocusDisplayState = .focused
  ) -> ScreenFrame {
    let layout = Layout(
      canvas: Size(width: 600, height: 260),
      items: [
        Item(
          id: "a", title: "Alpha", frame: Rect(x: 60, y: 60, width: 180, height: 120),
          focusEffect: effect, cornerRadius: radius),
        Item(id: "b", title: "Beta", frame: Rect(x: 330, y: 60, width: 180, height: 120)),
      ], navigation: navigation)
    return ScreenFrame(
      screen: "main", epoch: 1, seq: 3, layout: layout, focused: "a",
      states: ["a": state, "b": .unfocused])
  }

  static func terminal(_ frame: ScreenFrame, _ mode: ColorMode = .monochrome) -> CellGrid {
    TerminalRenderer.compose(frame, columns: 60, rows: 16, colorMode: mode)
  }

  @Test("terminal: a halo is a heavy outline around the unlifted card")
  func terminalHalo() {
    let grid = Self.terminal(Self.frame(.halo))
    let mismatch = TextSnapshot.mismatch(
      grid.lines().joined(separator: "\n"), named: "focus-effect-halo")
    #expect(mismatch == nil, "\(mismatch ?? "")")
    // The outline is bold and, in colour, in the accent colour; no shadow, no double border.
    let text = grid.lines().joined(separator: "\n")
    #expect(!text.contains("▒") && !text.contains("╔"))
    let colour = Self.terminal(Self.frame(.halo), .truecolor)
    let corner = Self.cells(of: "┏", in: colour)
    #expect(corner.first?.style.foreground == TerminalRenderer.accent)
    #expect(corner.first?.style.bold == true)
  }

  @Test("terminal: a corner radius rounds the halo's corners")
  func terminalRoundedHalo() {
    let text = Self.terminal(Self.frame(.halo, radius: 16)).lines().joined(separator: "\n")
    #expect(text.contains("╭────") && text.contains("╯") && !text.contains("┏"))
    let mismatch = TextSnapshot.mismatch(text, named: "focus-effect-halo-rounded")
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }

  @Test("terminal: halo is the default in iPadOS navigation, lift in tvOS")
  func terminalDefaults() {
    let ipad = Self.terminal(Self.frame(nil, navigation: .ipados)).lines().joined()
    #expect(ipad.contains("┏") && !ipad.contains("╔"))
    let tv = Self.terminal(Self.frame(nil)).lines().joined()
    #expect(tv.contains("╔") && tv.contains("▒") && !tv.contains("┏"))
  }

  @Test("terminal: highlight is accent text in the plain card (underlined in monochrome)")
  func terminalHighlight() {
    let mono = Self.terminal(Self.frame(.highlight))
    let mismatch = TextSnapshot.mismatch(
      mono.lines().joined(separator: "\n"), named: "focus-effect-highlight")
    #expect(mismatch == nil, "\(mismatch ?? "")")
    let title = Self.cells(of: "Alpha", in: mono)
    #expect(title.count == 5 && title.allSatisfy { $0.style.underline && $0.style.bold })
    #expect(!mono.lines().joined().contains("╔"))
    let colour = Self.terminal(Self.frame(.highlight), .truecolor)
    #expect(Self.cells(of: "Alpha", in: colour).first?.style.foreground == TerminalRenderer.accent)
    let plain = Self.cells(of: "Beta", in: colour)
    #expect(plain.first?.style.foreground != TerminalRenderer.accent)
  }

  @Test("terminal: pressed (highlighted state), a halo shows in inverse video")
  func terminalPressed() {
    let grid = Self.terminal(Self.frame(.halo, state: .highlighted))
    #expect(Self.cells(of: "┏", in: grid).first?.style.inverse == true)
    #expect(Self.cells(of: "Alpha", in: grid).first?.style.inverse == true)
  }

  /// The cells of the first occurrence of `text` on the grid.
  static func cells(of text: String, in grid: CellGrid) -> [Cell] {
    let needle = Array(text)
    for y in 0..<grid.rows {
      let row = Array(grid.rowText(y))
      guard row.count >= needle.count else { continue }
      for x in 0...(row.count - needle.count) where Array(row[x..<(x + needle.count)]) == needle {
        return (x..<(x + needle.count)).map { grid[$0, y] }
      }
    }
    return []
  }

  @Test("SVG: a halo follows the corner radius, and the card is neither scaled nor ringed")
  func svgHalo() throws {
    var frame = Self.frame(.halo, radius: 20)
    // The broker still sends the lift's numbers; a halo ignores them.
    frame.parallax = Parallax(
      item: "a", rotateX: 2, rotateY: 3, scale: Parallax.focusedScale, translate: [],
      shadow: Parallax.shadow(for: .focused), specular: Point(x: 0.3, y: 0.5))
    let svg = SVGRenderer.svg(for: frame)
    let halo = try #require(Self.element(#"class="halo""#, in: svg))
    #expect(halo.contains(#"x="54" y="54" width="192" height="132" rx="26""#), "\(halo)")
    #expect(halo.contains(#"stroke="\#(SVGRenderer.accent)""#) && halo.contains(#"fill="none""#))
    let card = try #require(Self.element(#"id="a""#, in: svg))
    #expect(card.contains("scale(1)"), "\(card)")
    #expect(svg.contains(#"rx="20" fill="#))
    #expect(!svg.contains(#"class="ring""#), "the halo replaces the ring")
    #expect(!svg.contains("skewY(2.4)") && !svg.contains("scale 1.10"), "no tilt, no lift")
  }

  @Test("SVG: highlight colours the title with the accent; lift keeps the white ring")
  func svgHighlight() throws {
    let svg = SVGRenderer.svg(for: Self.frame(.highlight))
    #expect(svg.contains(#"fill="\#(SVGRenderer.accent)">Alpha"#))
    #expect(svg.contains(##"fill="#141821""##), "a dark card under the accent text")
    #expect(!svg.contains(#"class="halo""#))
    let lift = SVGRenderer.svg(for: Self.frame(nil))
    #expect(lift.contains(#"class="ring""#) && lift.contains(##"stroke="#ffffff""##))
    #expect(!lift.contains(#"class="halo""#))
  }

  /// The opening tag that contains `marker`.
  static func element(_ marker: String, in svg: String) -> String? {
    guard let at = svg.range(of: marker) else { return nil }
    let start = svg[..<at.lowerBound].lastIndex(of: "<") ?? at.lowerBound
    let end = svg[at.upperBound...].firstIndex(of: ">") ?? svg.endIndex
    return String(svg[start..<end])
  }

  @Test("headless JSON: every item's effect and the focused item's effect and radius")
  func headless() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "frames-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: path) }
    let renderer = try HeadlessRenderer(path: path.path)
    try renderer.render(Self.frame(.halo, radius: 12, navigation: .ipados))
    var nothing = Self.frame(nil)
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
