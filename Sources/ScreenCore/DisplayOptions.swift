import FocusEngine

/// How a screen adapts its drawing to the people watching it (`tenfoot-screen
/// --reduce-motion`, `--contrast high`, `--text-size large`). Per screen: two screens showing
/// one session may differ.
public struct DisplayOptions: Sendable, Equatable {
  /// The contrast of the palette.
  public enum Contrast: String, Sendable, CaseIterable {
    /// The designed palette (every focus state still meets WCAG AA).
    case normal
    /// Thicker focus rings, no translucency or dimming, solid colours only.
    case high
  }

  /// The size of titles.
  public enum TextSize: String, Sendable, CaseIterable {
    /// Titles on one line, cut with `…` when they do not fit.
    case normal
    /// Larger titles: bigger type on the web; in the terminal, titles use every row their box
    /// has (wrapped at spaces) before they are cut.
    case large
  }

  /// No tilt, specular sweep or coasting animation: the parallax rests, focus changes cut or
  /// cross-fade.
  public var reduceMotion: Bool
  /// The palette's contrast.
  public var contrast: Contrast
  /// The size of titles.
  public var textSize: TextSize

  /// Creates options; the default is the designed look.
  public init(
    reduceMotion: Bool = false, contrast: Contrast = .normal, textSize: TextSize = .normal
  ) {
    self.reduceMotion = reduceMotion
    self.contrast = contrast
    self.textSize = textSize
  }

  /// The designed look: motion, the normal palette, normal titles.
  public static let standard = DisplayOptions()

  /// `frame` as this screen shows it: with reduced motion, the focused item's parallax at
  /// rest (see ``ScreenFrame/parallaxAtRest()``); otherwise unchanged.
  public func apply(to frame: ScreenFrame) -> ScreenFrame {
    reduceMotion ? frame.parallaxAtRest() : frame
  }
}

extension ScreenFrame {
  /// This frame with the focused item's parallax at rest: no rotation, no layer shift, the
  /// specular highlight in the middle (0.5, 0.5). Scale and shadow stay (they tell the
  /// states apart and do not move while focus rests).
  public func parallaxAtRest() -> ScreenFrame {
    guard var parallax else { return self }
    parallax.rotateX = 0
    parallax.rotateY = 0
    parallax.translate = parallax.translate.map { _ in .zero }
    parallax.specular = Point(x: 0.5, y: 0.5)
    var frame = self
    frame.parallax = parallax
    return frame
  }
}
