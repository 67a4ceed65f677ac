import FocusEngine
import Foundation
import ScreenCore
import TerminalUI
import TestSupport
import Testing

@testable import TerminalScreen

/// The halo and highlight focus effects in the terminal renderer.
@Suite("Focus effects in the terminal")
struct TerminalFocusEffectTests {
  static func terminal(_ frame: ScreenFrame, _ mode: ColorMode = .monochrome) -> CellGrid {
    TerminalRenderer.compose(frame, columns: 60, rows: 16, colorMode: mode)
  }

  @Test("terminal: a halo is a heavy outline around the unlifted card")
  func terminalHalo() {
    let grid = Self.terminal(ScreenFrames.focusEffect(.halo))
    let mismatch = TextSnapshot.mismatch(
      grid.lines().joined(separator: "\n"), named: "focus-effect-halo")
    #expect(mismatch == nil, "\(mismatch ?? "")")
    // The outline is bold and, in colour, in the accent colour; no shadow, no double border.
    let text = grid.lines().joined(separator: "\n")
    #expect(!text.contains("▒") && !text.contains("╔"))
    let colour = Self.terminal(ScreenFrames.focusEffect(.halo), .truecolor)
    let corner = TerminalRendererTests.cells(of: "┏", in: colour)
    #expect(corner.first?.style.foreground == TerminalRenderer.accent)
    #expect(corner.first?.style.bold == true)
  }

  @Test("terminal: a corner radius rounds the halo's corners")
  func terminalRoundedHalo() {
    let text = Self.terminal(ScreenFrames.focusEffect(.halo, radius: 16)).lines().joined(
      separator: "\n")
    #expect(text.contains("╭────") && text.contains("╯") && !text.contains("┏"))
    let mismatch = TextSnapshot.mismatch(text, named: "focus-effect-halo-rounded")
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }

  @Test("terminal: halo is the default in iPadOS navigation, lift in tvOS")
  func terminalDefaults() {
    let ipad = Self.terminal(ScreenFrames.focusEffect(nil, navigation: .ipados)).lines().joined()
    #expect(ipad.contains("┏") && !ipad.contains("╔"))
    let tv = Self.terminal(ScreenFrames.focusEffect(nil)).lines().joined()
    #expect(tv.contains("╔") && tv.contains("▒") && !tv.contains("┏"))
  }

  @Test("terminal: highlight is accent text in the plain card (underlined in monochrome)")
  func terminalHighlight() {
    let mono = Self.terminal(ScreenFrames.focusEffect(.highlight))
    let mismatch = TextSnapshot.mismatch(
      mono.lines().joined(separator: "\n"), named: "focus-effect-highlight")
    #expect(mismatch == nil, "\(mismatch ?? "")")
    let title = TerminalRendererTests.cells(of: "Alpha", in: mono)
    #expect(title.count == 5 && title.allSatisfy { $0.style.underline && $0.style.bold })
    #expect(!mono.lines().joined().contains("╔"))
    let colour = Self.terminal(ScreenFrames.focusEffect(.highlight), .truecolor)
    #expect(
      TerminalRendererTests.cells(of: "Alpha", in: colour).first?.style.foreground
        == TerminalRenderer.accent)
    let plain = TerminalRendererTests.cells(of: "Beta", in: colour)
    #expect(plain.first?.style.foreground != TerminalRenderer.accent)
  }

  @Test("terminal: pressed (highlighted state), a halo shows in inverse video")
  func terminalPressed() {
    let grid = Self.terminal(ScreenFrames.focusEffect(.halo, state: .highlighted))
    #expect(TerminalRendererTests.cells(of: "┏", in: grid).first?.style.inverse == true)
    #expect(TerminalRendererTests.cells(of: "Alpha", in: grid).first?.style.inverse == true)
  }
}
