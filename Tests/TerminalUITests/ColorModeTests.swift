import Colour
import Testing

@testable import TerminalUI

@Suite("Colour mode detection")
struct ColorModeTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let environment: [String: String]
    let isTTY: Bool
    let expected: ColorMode
    var testDescription: String { "\(environment) tty=\(isTTY) → \(expected)" }
  }

  @Test(arguments: [
    Case(
      environment: ["TERM": "xterm-256color", "NO_COLOR": "1"], isTTY: true, expected: .monochrome),
    Case(
      environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "yes"],
      isTTY: true, expected: .monochrome),
    Case(environment: ["TERM": "xterm-256color", "NO_COLOR": ""], isTTY: true, expected: .ansi256),
    Case(
      environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], isTTY: true,
      expected: .truecolor),
    Case(environment: ["TERM": "xterm", "COLORTERM": "24bit"], isTTY: true, expected: .truecolor),
    Case(environment: ["TERM": "screen-256color"], isTTY: true, expected: .ansi256),
    Case(environment: ["TERM": "dumb"], isTTY: true, expected: .monochrome),
    Case(
      environment: ["TERM": "dumb", "COLORTERM": "truecolor"], isTTY: true, expected: .monochrome),
    Case(
      environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], isTTY: false,
      expected: .monochrome),
    Case(environment: ["TERM": "xterm"], isTTY: true, expected: .ansi256),
    Case(environment: [:], isTTY: true, expected: .ansi256),
  ])
  func detect(_ example: Case) {
    #expect(
      ColorMode.detect(environment: example.environment, isTTY: example.isTTY) == example.expected)
  }

  @Test("256-colour mapping picks the cube or the grey ramp, whichever is nearer")
  func ansi256Mapping() {
    #expect(RGB(0, 0, 0).ansi256Index == 16)
    #expect(RGB(255, 255, 255).ansi256Index == 231)
    #expect(RGB(255, 0, 0).ansi256Index == 196)
    #expect(RGB(0, 255, 0).ansi256Index == 46)
    #expect(RGB(0, 0, 255).ansi256Index == 21)
    #expect(RGB(128, 128, 128).ansi256Index == 244)  // grey 128 is on the ramp (8 + 10·12)
    #expect(RGB(95, 135, 175).ansi256Index == 16 + 36 * 1 + 6 * 2 + 3)
  }

  @Test("style sequences per mode")
  func sgr() {
    let style = Style(
      foreground: RGB(1, 2, 3), background: RGB(255, 0, 0), bold: true, inverse: true)
    #expect(style.sgr(.truecolor) == "\u{1B}[0;1;7;38;2;1;2;3;48;2;255;0;0m")
    #expect(style.sgr(.ansi256) == "\u{1B}[0;1;7;38;5;16;48;5;196m")
    #expect(style.sgr(.monochrome) == "\u{1B}[0;1;7m")
    #expect(Style(dim: true, underline: true).sgr(.monochrome) == "\u{1B}[0;2;4m")
  }
}
