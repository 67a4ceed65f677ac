import CatalogDemo
import Colour
import FocusEngine
import ScreenCore
import TerminalScreen
import TerminalUI
import Testing

@Suite("Terminal renderer composition")
struct TerminalRendererTests {
  /// Four items in a row on a 600×260 canvas: a, b, c, d.
  static let layout = Layout(
    canvas: Size(width: 600, height: 260),
    items: [
      Item(id: "a", title: "Alpha", frame: Rect(x: 30, y: 40, width: 120, height: 80)),
      Item(id: "b", title: "Beta", frame: Rect(x: 180, y: 40, width: 120, height: 80)),
      Item(
        id: "c", title: "Gamma", frame: Rect(x: 330, y: 40, width: 120, height: 80),
        available: false),
      Item(id: "d", title: "Delta Long Title", frame: Rect(x: 480, y: 40, width: 110, height: 80)),
      Item(id: "e", title: "Echo", frame: Rect(x: 30, y: 160, width: 120, height: 80)),
    ])

  static func frame(
    focused: String?, _ states: [String: FocusDisplayState], event: String? = "right → a"
  ) -> ScreenFrame {
    ScreenFrame(
      screen: "main", epoch: 42, seq: 7, layout: layout, focused: focused, states: states,
      lastEvent: event)
  }

  static let allStates: [String: FocusDisplayState] = [
    "a": .focused, "b": .selected, "c": .unavailable, "d": .unfocused, "e": .unfocused,
  ]

  static func compose(_ frame: ScreenFrame, _ mode: ColorMode = .monochrome) -> CellGrid {
    TerminalRenderer.compose(frame, columns: 60, rows: 16, colorMode: mode)
  }

  /// The cells of the first occurrence of `text` on the grid.
  static func cells(of text: String, in grid: CellGrid) -> [Cell] {
    for y in 0..<grid.rows {
      let row = Array(grid.rowText(y))
      let needle = Array(text)
      guard row.count >= needle.count else { continue }
      for x in 0...(row.count - needle.count) where Array(row[x..<(x + needle.count)]) == needle {
        return (x..<(x + needle.count)).map { grid[$0, y] }
      }
    }
    return []
  }

  @Test("snapshot: every state in monochrome")
  func snapshot() {
    let grid = Self.compose(Self.frame(focused: "a", Self.allStates))
    let expected = """
       TenFoot · screen main · epoch 42

        ╔════════════╗
        ║            ║▒ ┌──────────┐   ············   ┌─────────┐
        ║   Alpha    ║▒ │  ♥ Beta  │   ·  Gamma   ·   │Delta Lo…│
        ║            ║▒ │          │   ·          ·   │         │
        ║            ║▒ └──────────┘   ············   └─────────┘
        ╚════════════╝▒
         ▒▒▒▒▒▒▒▒▒▒▒▒▒▒
         ┌──────────┐
         │   Echo   │
         │          │
         └──────────┘

      ▶ Alpha (a) · focused · seq 7 · right → a
      arrows move · Return selects · Ctrl-C quits
      """
    let actual = grid.lines().joined(separator: "\n")
    #expect(actual == expected)
  }

  @Test("focused: grown box with a double border, bold title and a shadow")
  func focused() {
    let grid = Self.compose(Self.frame(focused: "a", Self.allStates))
    let text = grid.lines().joined(separator: "\n")
    #expect(text.contains("╔") && text.contains("╝") && text.contains("▒"))
    let title = Self.cells(of: "Alpha", in: grid)
    #expect(title.count == 5)
    #expect(title.allSatisfy { $0.style.bold && !$0.style.inverse })
    // Grown by one cell on each side of the 12×4 cell box the item scales to.
    #expect(grid[2, 2].character == "╔")
    #expect(grid[15, 7].character == "╝")
    #expect(grid.rowText(14).hasPrefix("▶ Alpha (a) · focused · seq 7 · right → a"))
  }

  @Test("highlighted: the focused look in inverse video")
  func highlighted() {
    var states = Self.allStates
    states["a"] = .highlighted
    let grid = Self.compose(Self.frame(focused: "a", states))
    let focusedGrid = Self.compose(Self.frame(focused: "a", Self.allStates))
    var lines = grid.lines()
    var focusedLines = focusedGrid.lines()
    lines.remove(at: 14)  // the status lines name the states
    focusedLines.remove(at: 14)
    #expect(lines == focusedLines)
    for y in 2...7 {
      for x in 2...15 { #expect(grid[x, y].style.inverse, "cell \(x),\(y)") }
    }
    #expect(Self.cells(of: "Alpha", in: grid).allSatisfy { $0.style.bold && $0.style.inverse })
    #expect(!grid[20, 4].style.inverse)
    #expect(grid.rowText(14).contains("· highlighted ·"))
  }

  @Test("selected: a heart before the title, in its own colour (underlined without colour)")
  func selected() {
    let colour = Self.compose(Self.frame(focused: "a", Self.allStates), .truecolor)
    let heart = Self.cells(of: "♥ Beta", in: colour)
    let plain = Self.cells(of: "Echo", in: colour)
    #expect(heart.count == 6)
    #expect(heart[0].style.foreground != nil)
    #expect(heart[0].style.foreground != plain[0].style.foreground)
    let mono = Self.compose(Self.frame(focused: "a", Self.allStates))
    #expect(Self.cells(of: "♥ Beta", in: mono).allSatisfy { $0.style.underline })
    #expect(!Self.cells(of: "Echo", in: mono).contains { $0.style.underline })
  }

  @Test("unavailable: a dotted border, the title kept, grey (dim cells in monochrome)")
  func unavailable() {
    let grid = Self.compose(Self.frame(focused: "a", Self.allStates))
    let title = Self.cells(of: "Gamma", in: grid)
    #expect(title.count == 5 && title.allSatisfy { $0.style.dim })
    #expect(grid[33, 3].character == "·" && grid[33, 3].style.dim)
    #expect(grid[44, 6].character == "·")
    #expect(!Self.cells(of: "Echo", in: grid).contains { $0.style.dim })
    // In colour, a plain mid grey (5.3:1 on black) instead of dim, which halved it to 1.6:1.
    let colour = Self.compose(Self.frame(focused: "a", Self.allStates), .truecolor)
    let grey = Self.cells(of: "Gamma", in: colour)
    #expect(grey.count == 5)
    #expect(grey.allSatisfy { $0.style.foreground == RGB(128, 128, 128) && !$0.style.dim })
  }

  @Test("unfocused: a plain light border and plain title")
  func unfocused() {
    let grid = Self.compose(Self.frame(focused: "a", Self.allStates))
    #expect(grid[3, 9].character == "┌" && grid[14, 12].character == "┘")
    let title = Self.cells(of: "Echo", in: grid)
    #expect(title.allSatisfy { !$0.style.bold && !$0.style.dim && !$0.style.inverse })
    #expect(Self.cells(of: "Delta Lo…", in: grid).count == 9, "titles are truncated to fit")
  }

  @Test("nothing focused, no event: the status line says so")
  func nothingFocused() {
    var states = Self.allStates
    states["a"] = .unfocused
    let grid = Self.compose(Self.frame(focused: nil, states, event: nil))
    #expect(grid.lines()[14] == "▶ (nothing focused) · seq 7")
    #expect(!grid.lines().joined().contains("╔"))
  }

  @Test("a small terminal gets a message and the status line, never a crash")
  func tooSmall() {
    let frame = Self.frame(focused: "a", Self.allStates)
    let grid = TerminalRenderer.compose(frame, columns: 39, rows: 12, colorMode: .ansi256)
    #expect(grid.lines()[0] == "terminal too small: 39×12, need 40×12")
    #expect(grid.lines()[1].hasPrefix("▶ Alpha (a) · focused"))
    for (columns, rows) in [(0, 0), (1, 1), (40, 1), (5, 30), (40, 12)] {
      let tiny = TerminalRenderer.compose(
        frame, columns: columns, rows: rows, colorMode: .truecolor)
      #expect(tiny.columns == columns && tiny.rows == rows)
    }
  }

  @Test("a one-step focus move costs far fewer bytes than a full repaint")
  func diffAfterMove() throws {
    let layout = CatalogApp().homeLayout
    func frame(_ focused: String, seq: UInt64) -> ScreenFrame {
      var states: [String: FocusDisplayState] = [:]
      for item in layout.items {
        states[item.id] =
          !item.available ? .unavailable : item.id == focused ? .focused : .unfocused
      }
      return ScreenFrame(
        screen: "main", epoch: 1, seq: seq, layout: layout, focused: focused, states: states,
        lastEvent: "right → \(focused)")
    }
    for mode in ColorMode.allCases {
      let before = TerminalRenderer.compose(
        frame("upnext-0", seq: 1), columns: 120, rows: 40, colorMode: mode)
      let after = TerminalRenderer.compose(
        frame("upnext-1", seq: 2), columns: 120, rows: 40, colorMode: mode)
      let full = after.ansiDiff(from: nil, colorMode: mode).utf8.count
      let step = after.ansiDiff(from: before, colorMode: mode).utf8.count
      print("\(mode): full repaint \(full) bytes, one-step move \(step) bytes")
      #expect(step * 5 < full)
      #expect(after.ansiDiff(from: after, colorMode: mode).isEmpty)
    }
  }
}

@Suite("Headings in the terminal and the catalog")
struct TerminalLabelTests {
  @Test("a label is drawn as bold text without a border; the catalog titles its rows")
  func heading() throws {
    var layout = TerminalRendererTests.layout
    layout.items.append(
      Item(
        id: "h", title: "Up Next", frame: Rect(x: 30, y: 0, width: 300, height: 30),
        kind: .label))
    let frame = ScreenFrame(
      screen: "main", epoch: 1, seq: 1, layout: layout, focused: "a",
      states: TerminalRendererTests.allStates.merging(["h": .unfocused]) { $1 }, lastEvent: nil)
    let grid = TerminalRendererTests.compose(frame, .truecolor)
    let cells = TerminalRendererTests.cells(of: "Up Next", in: grid)
    try #require(cells.count == 7, "the heading is drawn:\n\(grid.lines().joined(separator: "\n"))")
    #expect(cells.allSatisfy { $0.style.bold })
    let line = try #require(grid.lines().first { $0.contains("Up Next") })
    #expect(!line.contains("┌") && !line.contains("│"), "no border on the heading's line: \(line)")

    let app = CatalogApp()
    let titles = app.homeLayout.items.filter { $0.kind == .label }.map(\.title)
    #expect(titles == CatalogApp().catalog.rows.map(\.title))
  }

  /// The catalog's page scrolled by `offset` points, focus on the first poster.
  static func catalogFrame(pageScroll offset: Double) -> ScreenFrame {
    var frame = ScreenFrame(
      screen: "main", epoch: 1, seq: 1, layout: CatalogApp().homeLayout, focused: "upnext-0",
      states: ["upnext-0": .focused], lastEvent: nil)
    frame.scroll = ["page": Point(x: 0, y: offset)]
    return frame
  }

  @Test(
    "every catalog row heading inside the page's viewport is drawn, at every page scroll",
    arguments: [(80, 24), (100, 30), (120, 40), (160, 48)])
  func everyHeadingInView(columns: Int, rows: Int) throws {
    // Scaled down, a heading 48 points above its posters can round onto their top border's
    // row (at 80×24 the catalog's own first scroll, 10 points up, hid "Classics").
    let layout = CatalogApp().homeLayout
    let headings = layout.items.filter { $0.kind == .label }
    let viewport = try #require(layout.groups.first { $0.id == "page" }?.viewport)
    var missing: [String] = []
    for offset in stride(from: -40.0, through: 400, by: 2) {
      let grid = TerminalRenderer.compose(
        Self.catalogFrame(pageScroll: offset), columns: columns, rows: rows,
        colorMode: .monochrome)
      let text = grid.lines().joined(separator: "\n")
      for heading in headings {
        let top = heading.frame.y - offset
        guard top >= viewport.y, top + heading.frame.height <= viewport.maxY
        else { continue }
        if !text.contains(heading.title) { missing.append("\(heading.title) at \(offset)") }
      }
    }
    #expect(missing.isEmpty, "\(columns)×\(rows): headings not drawn: \(missing)")
  }

  @Test("at 80×24 scrolled 10 points (the demo's first frame) the Classics heading has its row")
  func classicsAt80x24() throws {
    let grid = TerminalRenderer.compose(
      Self.catalogFrame(pageScroll: -10), columns: 80, rows: 24, colorMode: .monochrome)
    let lines = grid.lines()
    let row = try #require(
      lines.firstIndex { $0.contains("Classics") }, "\(lines.joined(separator: "\n"))")
    #expect(lines[row].trimmingCharacters(in: .whitespaces) == "Classics", "its own row")
    #expect(lines[row + 1].contains("┌───────────┐"), "the row's posters right under it")
  }
}
