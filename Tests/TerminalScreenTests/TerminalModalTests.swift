import CatalogDemo
import FocusEngine
import ScreenCore
import TerminalScreen
import TerminalUI
import TestSupport
import Testing

/// The catalog's detail view drawn as a modal (issue 16): nothing of the home rows shows
/// inside its panel, what lies around it is dimmed (cleared in high contrast), and its own
/// titles stay whole from 80×24 to 200×60. Text snapshots at four sizes.
@Suite("Terminal modal: the detail view over the home rows")
struct TerminalModalTests {
  static var app: CatalogApp { CatalogApp() }
  static let sizes = [(80, 24), (120, 40), (160, 48), (200, 60)]

  /// Every item's display state as the engine gives it with `focused` focused.
  static func states(_ layout: Layout, focused: String) -> [String: FocusDisplayState] {
    var states: [String: FocusDisplayState] = [:]
    for item in layout.items where item.kind != .label {
      states[item.id] = !item.available ? .unavailable : item.id == focused ? .focused : .unfocused
    }
    return states
  }

  /// The home rows with "Quiet Hours" (trending-3) focused.
  static func homeFrame() -> ScreenFrame {
    let layout = app.homeLayout
    return ScreenFrame(
      screen: "main", epoch: 1, seq: 4, layout: layout, focused: "trending-3",
      states: states(layout, focused: "trending-3"), lastEvent: "right → trending-3")
  }

  /// "Quiet Hours"'s detail view open over the home rows, its Play button focused; with
  /// `homeHidden`, the same view with every home item taken out.
  static func detailFrame(homeHidden: Bool = false) throws -> ScreenFrame {
    let home = homeFrame()
    var layout = try LayoutPatch(app.openDetail(for: "trending-3", on: AppScreen(frame: home)))
      .applied(
        to: home.layout)
    if homeHidden {
      layout.items.removeAll { !$0.id.hasPrefix("detail") }
      layout.groups.removeAll { $0.id != "detail" }
    }
    return ScreenFrame(
      screen: "main", epoch: 1, seq: 6, layout: layout, focused: "detail-play",
      states: states(layout, focused: "detail-play"), lastEvent: "focus group detail")
  }

  /// The text of `rect` on `grid`, one line per row.
  static func text(of rect: CellRect, in grid: CellGrid) -> [String] {
    (rect.y..<rect.maxY).map { y in
      String((rect.x..<rect.maxX).map { grid[$0, y].character })
    }
  }

  @Test("nothing of the rows beneath shows inside the dialog", arguments: sizes)
  func panelHidesTheRows(_ columns: Int, _ rows: Int) throws {
    let frame = try Self.detailFrame()
    let grid = TerminalRenderer.compose(frame, columns: columns, rows: rows, colorMode: .truecolor)
    let alone = TerminalRenderer.compose(
      try Self.detailFrame(homeHidden: true), columns: columns, rows: rows, colorMode: .truecolor)
    let panel = try #require(TerminalRenderer.modalPanel(for: frame, columns: columns, rows: rows))
    let screen = grid.lines().joined(separator: "\n")
    #expect(panel.intersection(grid.bounds) == panel, "the panel fits:\n\(screen)")
    // Cell for cell, the panel shows what the dialog alone shows.
    #expect(Self.text(of: panel, in: grid) == Self.text(of: panel, in: alone), "\(screen)")
    let inside = Self.text(of: panel, in: grid).joined(separator: "\n")
    let home = Self.app.catalog.rows.flatMap { [$0.title] + $0.posters.map(\.title) }
    let own = "▶ Play Quiet Hours Favourite More Like This"
    for title in home where title != "Quiet Hours" {
      for word in title.split(separator: " ") where word.count >= 4 && !own.contains(word) {
        #expect(!inside.contains(word), "\"\(word)\" of the home shows in the dialog:\n\(inside)")
      }
    }
    let snapshot = grid.lines().joined(separator: "\n")
    if let problem = TextSnapshot.mismatch(snapshot, named: "detail-\(columns)x\(rows)") {
      Issue.record(Comment(rawValue: problem))
    }
  }

  @Test("the dialog's own titles are whole at every size", arguments: sizes)
  func dialogReadable(_ columns: Int, _ rows: Int) throws {
    let frame = try Self.detailFrame()
    let grid = TerminalRenderer.compose(frame, columns: columns, rows: rows, colorMode: .monochrome)
    let panel = try #require(TerminalRenderer.modalPanel(for: frame, columns: columns, rows: rows))
    let inside = Self.text(of: panel, in: grid).joined(separator: "\n")
    #expect(!inside.contains("…"), "no title is cut:\n\(inside)")
    let words = inside.split(whereSeparator: { " \n│║═─┌┐└┘╔╗╚╝▒".contains($0) }).map(String.init)
    for (word, count) in [("Play", 1), ("Quiet", 1), ("Hours", 1), ("Favourite", 1), ("More", 4)] {
      #expect(words.filter { $0 == word }.count == count, "\(word) ×\(count):\n\(inside)")
    }
    for number in 1...4 { #expect(words.contains("\(number)"), "More Like This \(number)") }
    #expect(inside.contains("╔"), "Play is lifted inside the panel:\n\(inside)")
  }

  @Test("around the dialog the home is dimmed; in high contrast it is cleared")
  func aroundTheDialog() throws {
    let frame = try Self.detailFrame()
    let panel = try #require(TerminalRenderer.modalPanel(for: frame, columns: 120, rows: 40))
    let normal = TerminalRenderer.compose(frame, columns: 120, rows: 40, colorMode: .truecolor)
    let high = TerminalRenderer.compose(
      frame, columns: 120, rows: 40, colorMode: .truecolor,
      display: DisplayOptions(contrast: .high))
    var shown = 0
    for y in 1..<38 {
      for x in 0..<120 where !panel.contains(x: x, y: y) {
        #expect(normal[x, y].style == TerminalPalette.normal.behindModal, "(\(x), \(y)) dimmed")
        if normal[x, y].character != " " { shown += 1 }
        #expect(high[x, y].character == " ", "(\(x), \(y)) cleared in high contrast")
      }
    }
    #expect(shown > 200, "the dimmed home still shows around the dialog in normal contrast")
    #expect(normal.lines().joined().contains("Settings"))
    #expect(!high.lines().joined().contains("Settings"))
  }

  @Test("the lifted focused card leaves the row heading above and below it whole")
  func liftKeepsHeadings() throws {
    let layout = Self.app.homeLayout
    let headings = layout.items.filter { $0.kind == .label }
    var checked = 0
    for (columns, rows) in [(80, 24), (100, 30), (120, 40), (160, 48), (200, 60)] {
      for poster in ["upnext-0", "upnext-1", "trending-0", "trending-4"] {
        let frame = ScreenFrame(
          screen: "main", epoch: 1, seq: 1, layout: layout, focused: poster,
          states: Self.states(layout, focused: poster), lastEvent: nil)
        let grid = TerminalRenderer.compose(
          frame, columns: columns, rows: rows, colorMode: .monochrome)
        let text = grid.lines().joined(separator: "\n")
        #expect(text.contains("╔"), "the focused card is lifted at \(columns)×\(rows)")
        for heading in headings {
          // Each heading that shows on screen shows whole.
          let canvasRow = Int(heading.frame.y * Double(rows - 3) / layout.canvas.height) + 1
          guard canvasRow < rows - 2 else { continue }
          #expect(
            grid.rowText(canvasRow).contains(heading.title),
            "\(heading.title) whole at \(columns)×\(rows), \(poster) focused:\n\(text)")
          checked += 1
        }
      }
    }
    #expect(checked > 40)
  }
}
