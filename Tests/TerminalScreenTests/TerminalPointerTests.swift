import FocusEngine
import ScreenCore
import TerminalScreen
import TerminalUI
import Testing

/// The terminal draws the visible pointer as one accent cell: a dot, or an I-beam over text.
@Suite("Terminal pointer")
struct TerminalPointerTests {
  static func frame(_ pointer: PointerPresentation?) -> ScreenFrame {
    let layout = Layout(
      canvas: Size(width: 800, height: 210),
      items: [Item(id: "a", frame: Rect(x: 0, y: 0, width: 100, height: 100))])
    var frame = ScreenFrame(
      screen: "main", epoch: 1, seq: 1, layout: layout, focused: "a",
      states: ["a": .focused], lastEvent: nil)
    frame.pointer = pointer
    return frame
  }

  @Test("a visible pointer is a cell at its scaled position; an I-beam over a text field")
  func marker() {
    // 80 columns × (24 − 3) content rows for 800 × 210 points: 10 points a cell each way.
    let dot = PointerPresentation(
      position: Point(x: 405, y: 155), visible: true, shape: PointerShape.circle, effect: .none,
      target: nil)
    let grid = TerminalRenderer.compose(
      Self.frame(dot), columns: 80, rows: 24, colorMode: .monochrome)
    #expect(grid[40, 1 + 15].character == "●")
    var beam = dot
    beam.shape = PointerShape.iBeam
    let beamGrid = TerminalRenderer.compose(
      Self.frame(beam), columns: 80, rows: 24, colorMode: .monochrome)
    #expect(beamGrid[40, 16].character == "I")
    var hidden = dot
    hidden.visible = false
    let hiddenGrid = TerminalRenderer.compose(
      Self.frame(hidden), columns: 80, rows: 24, colorMode: .monochrome)
    #expect(hiddenGrid[40, 16].character != "●")
  }
}
