import Colour
import Testing

/// The WCAG 2.x contrast ratio the palettes' contrast tests rely on.
@Suite("Contrast ratio (WCAG 2.x)")
struct ContrastRatioTests {
  @Test("WCAG formula: black on white is 21:1, a colour on itself 1:1, #777 on white about 4.48")
  func formula() {
    let white = RGB(255, 255, 255)
    #expect(abs(RGB(0, 0, 0).contrastRatio(with: white) - 21) < 1e-9)
    #expect(abs(RGB(36, 92, 170).contrastRatio(with: RGB(36, 92, 170)) - 1) < 1e-9)
    #expect(abs(RGB(0x77, 0x77, 0x77).contrastRatio(with: white) - 4.48) < 0.01)
  }
}
