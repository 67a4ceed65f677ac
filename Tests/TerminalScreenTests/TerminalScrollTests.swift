import FocusEngine
import ScreenCore
import TerminalScreen
import TerminalUI
import TestSupport
import Testing

/// Scrolled rows and the focused card's parallax in the terminal (text snapshots).
@Suite("Terminal renderer: scrolled rows and parallax")
struct TerminalScrollTests {
  /// One row of six posters in a 600-point-wide viewport: only about three fit.
  static let layout = Layout(
    canvas: Size(width: 600, height: 200),
    items: (0..<6).map { index in
      Item(
        id: "p\(index)", title: "Poster \(index)",
        frame: Rect(x: 20 + Double(index) * 200, y: 40, width: 180, height: 120))
    },
    groups: [
      Group(
        id: "row", items: (0..<6).map { "p\($0)" }, scroll: .horizontal,
        viewport: Rect(x: 0, y: 20, width: 600, height: 160))
    ])

  static func frame(focused: String, scroll: Double, parallax: Parallax? = nil) -> ScreenFrame {
    var states: [String: FocusDisplayState] = [:]
    for item in layout.items { states[item.id] = item.id == focused ? .focused : .unfocused }
    var frame = ScreenFrame(
      screen: "main", epoch: 1, seq: 3, layout: layout, focused: focused, states: states)
    frame.scroll = ["row": Point(x: scroll, y: 0)]
    frame.parallax = parallax
    return frame
  }

  static func text(_ frame: ScreenFrame) -> String {
    TerminalRenderer.compose(frame, columns: 60, rows: 14, colorMode: .monochrome).lines()
      .joined(separator: "\n")
  }

  @Test("a row scrolled by 600 points shows posters 3 to 5 where 0 to 2 were")
  func scrolledRow() {
    let actual = Self.text(Self.frame(focused: "p5", scroll: 600))
    #expect(actual.contains("Poster 3") && !actual.contains("Poster 0"), "\(actual)")
    let mismatch = TextSnapshot.mismatch(actual, named: "scrolled-row")
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }

  @Test("the focused card's title follows the tilt, and the status line shows it")
  func parallaxOffset() {
    let rest = Self.text(Self.frame(focused: "p1", scroll: 0))
    let tilted = Self.text(
      Self.frame(
        focused: "p1", scroll: 0,
        parallax: Parallax(
          item: "p1", rotateX: 0, rotateY: 4, scale: 1.1, translate: [],
          shadow: Parallax.shadow(for: .focused), specular: Point(x: 0.3, y: 0.5))))
    let titleRow = { (text: String) in
      text.split(separator: "\n").first { $0.contains("Poster 1") }.map(String.init) ?? ""
    }
    let restColumn = titleRow(rest).range(of: "Poster 1").map {
      titleRow(rest).distance(from: titleRow(rest).startIndex, to: $0.lowerBound)
    }
    let tiltColumn = titleRow(tilted).range(of: "Poster 1").map {
      titleRow(tilted).distance(from: titleRow(tilted).startIndex, to: $0.lowerBound)
    }
    #expect(tiltColumn == restColumn.map { $0 + 1 }, "\(rest)\n\(tilted)")
    #expect(tilted.contains("tilt 0°/+4°"), "\(tilted)")
  }
}

@Suite("Terminal renderer: posters partly scrolled out of view")
struct TerminalPartialTests {
  @Test("a poster half out of its row shows its visible half, not a squashed box")
  func cutNotSquashed() throws {
    // Scrolled by 100 points: p0 spans -80…100, so its left 80 points are out of view.
    let lines = TerminalRenderer.compose(
      TerminalScrollTests.frame(focused: "p3", scroll: 100), columns: 60, rows: 14,
      colorMode: .monochrome
    ).lines()
    let top = try #require(lines.first { $0.contains("┐") }, "\(lines)")
    #expect(top.hasPrefix("─"), "the cut poster's top border runs off the left edge: \(top)")
    #expect(!lines.joined().contains("Poster 0"), "its centred title is out of view")
  }
}
