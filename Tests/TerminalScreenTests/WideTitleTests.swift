import FocusEngine
import ScreenCore
import TerminalScreen
import TerminalUI
import TestSupport
import Testing

/// A row of CJK, emoji and combining-mark titles (issue 17): every border stays in the column
/// it has with plain titles, every row is exactly as wide as the terminal, and long titles are
/// cut at a cell boundary with an ellipsis. Text snapshots at 80×24 and 120×40.
@Suite("Terminal renderer: wide and combining titles keep the borders in their columns")
struct WideTitleTests {
  static let titles = [
    "東京物語 Tokyo Story", "🎬🍿 Movie Night", "Ame\u{301}lie Cre\u{300}me Bru\u{302}le\u{301}e",
    "長いタイトルが切り詰められる場合のテスト", "Esc\u{1B}]0;HACKED\u{07}\u{1B}[2J",
  ]

  /// A heading and five posters across a 1920×1080 canvas; `titles` nil: plain titles.
  static func layout(titles: [String]?) -> Layout {
    let posters = (0..<5).map { index in
      Item(
        id: "p\(index)", title: titles?[index] ?? "",
        frame: Rect(x: 40 + Double(index) * 376, y: 300, width: 336, height: 360))
    }
    let heading = Item(
      id: "heading", title: titles == nil ? "" : "人気の映画 · Popular 🎞",
      frame: Rect(x: 40, y: 200, width: 1800, height: 60), kind: .label)
    return Layout(
      items: [heading] + posters, groups: [Group(id: "row", items: posters.map(\.id))])
  }

  static func grid(titles: [String]?, columns: Int, rows: Int) -> CellGrid {
    let layout = layout(titles: titles)
    var states: [String: FocusDisplayState] = ["p0": .focused, "p2": .selected]
    for index in [1, 3, 4] { states["p\(index)"] = .unfocused }
    let frame = ScreenFrame(
      screen: "main", epoch: 1, seq: 4, layout: layout, focused: "p0", states: states,
      lastEvent: "right → p0")
    return TerminalRenderer.compose(frame, columns: columns, rows: rows, colorMode: .monochrome)
  }

  static let borders = Set("┌┐└┘─│╔╗╚╝═║▒")

  @Test("borders keep their columns and rows their width", arguments: [(80, 24), (120, 40)])
  func borders(_ columns: Int, _ rows: Int) throws {
    let wide = Self.grid(titles: Self.titles, columns: columns, rows: rows)
    let plain = Self.grid(titles: nil, columns: columns, rows: rows)
    var checked = 0
    for y in 0..<rows {
      for x in 0..<columns where Self.borders.contains(plain[x, y].character) {
        #expect(
          wide[x, y].character == plain[x, y].character,
          "border at column \(x), row \(y): \(wide.rowText(y))")
        checked += 1
      }
      #expect(TerminalText.width(wide.rowText(y)) == columns, "row \(y): \(wide.rowText(y))")
    }
    #expect(checked > 40, "the plain grid has borders to compare")
    let text = wide.lines().joined(separator: "\n")
    #expect(text.contains("東京物語"), "\(text)")
    #expect(text.contains("🎬🍿 Movie"), "\(text)")
    #expect(text.contains("Ame\u{301}lie"), "\(text)")
    #expect(text.contains("…"), "a long title is cut with an ellipsis: \(text)")
    #expect(
      text.contains("Esc\u{FFFD}]0;HACKED\u{FFFD}\u{FFFD}[2J") || text.contains("Esc\u{FFFD}"))
    #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    let mismatch = TextSnapshot.mismatch(text, named: "wide-titles-\(columns)x\(rows)")
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }

  @Test("the ANSI output of the row has no escape sequence but cursor moves and colours")
  func ansi() {
    let grid = Self.grid(titles: Self.titles, columns: 80, rows: 24)
    let output = grid.ansiDiff(from: nil, colorMode: .truecolor)
    #expect(TerminalBytes.onlyCursorAndStyle(output))
  }
}
