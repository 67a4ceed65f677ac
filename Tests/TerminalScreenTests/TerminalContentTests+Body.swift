import FocusEngine
import Foundation
import ScreenCore
import TerminalScreen
import TerminalUI
import TestSupport
import Testing

/// An item's body text in the terminal renderer: a page card (the template's) and
/// hostile bodies that must not reshape the card.
extension TerminalContentTests {
  @Test("terminal: the page card shows its body under the title, wrapped inside the border")
  func terminalBody() throws {
    let body = "Sunny, 21 °C. Light wind from the west, clouds later in the day."
    let grid = TerminalRenderer.compose(
      ScreenFrames.content(ScreenFrames.page(body: body), focused: "page-weather"), columns: 80,
      rows: 24,
      colorMode: .truecolor)
    let lines = grid.lines()
    let text = lines.joined(separator: "\n")
    let titleRow = try #require(
      lines.firstIndex { $0.contains("Weather") && $0.contains("║") }, "\(text)")
    let bodyRow = try #require(lines.firstIndex { $0.contains("Sunny, 21 °C.") }, "\(text)")
    #expect(bodyRow > titleRow, "the body is under the title:\n\(text)")
    #expect(text.contains("from the west"), "the body wraps onto the next rows:\n\(text)")
    // Inside the card: the body's rows keep the ring's glyphs at both ends.
    let left = try #require(lines[bodyRow].firstIndex(of: "║"), "\(lines[bodyRow])")
    let sunny = try #require(lines[bodyRow].range(of: "Sunny"))
    #expect(left < sunny.lowerBound && lines[bodyRow].filter { $0 == "║" }.count == 2)
  }

  @Test("terminal: a long body ends in … on the card's last row; line breaks start paragraphs")
  func terminalBodyCut() throws {
    let long = "First paragraph.\nSecond " + String(repeating: "word ", count: 400) + "END"
    let grid = TerminalRenderer.compose(
      ScreenFrames.content(ScreenFrames.page(body: long), focused: "weather"), columns: 80,
      rows: 24,
      colorMode: .truecolor)
    let lines = grid.lines()
    let text = lines.joined(separator: "\n")
    let first = try #require(lines.firstIndex { $0.contains("First paragraph.") }, "\(text)")
    #expect(lines[first + 1].contains("Second word"), "a paragraph per line break:\n\(text)")
    #expect(!text.contains("END"), "\(text)")
    let last = try #require(lines.lastIndex { $0.contains("word") }, "\(text)")
    #expect(lines[last].contains("…"), "the last row says text is left over:\n\(text)")
    #expect(lines[last + 1].contains("└"), "the body fills the card to its border:\n\(text)")
  }

  @Test(
    "terminal: a hostile body is filtered and cut like a title; the borders stay where they are",
    arguments: ScreenFrames.hostileBodies.indices)
  func terminalHostileBody(index: Int) throws {
    let body = ScreenFrames.hostileBodies[index]
    for (columns, rows) in [(80, 24), (40, 12), (160, 48)] {
      for focused in ["weather", "page-weather"] {
        let plain = TerminalRenderer.compose(
          ScreenFrames.content(ScreenFrames.page(body: ""), focused: focused), columns: columns,
          rows: rows,
          colorMode: .truecolor)
        let grid = TerminalRenderer.compose(
          ScreenFrames.content(ScreenFrames.page(body: body, subtitle: body), focused: focused),
          columns: columns,
          rows: rows, colorMode: .truecolor)
        let text = grid.lines().joined(separator: "\n")
        for y in 0..<rows {
          #expect(TerminalText.width(grid.rowText(y)) == columns, "row \(y):\n\(text)")
          for x in 0..<columns where "┌┐└┘─│╔╗╚╝═║▒".contains(plain[x, y].character) {
            #expect(grid[x, y].character == plain[x, y].character, "(\(x), \(y)) moved:\n\(text)")
          }
          for x in 0..<columns {
            #expect(
              !grid[x, y].character.unicodeScalars.contains(where: TerminalBytes.isTerminalControl)
            )
          }
        }
        #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .format })
        #expect(
          TerminalBytes.onlyCursorAndStyle(grid.ansiDiff(from: plain, colorMode: .truecolor)))
      }
    }
  }
}
