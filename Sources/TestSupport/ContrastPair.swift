import Colour

/// One focus state's colours and the WCAG 2.x contrast ratio they need: AA asks 4.5:1 for
/// text and 3:1 for focus indicators and other parts of the interface. The palettes' contrast
/// tests (the terminal's and the web page's) build these.
public struct ContrastPair: CustomStringConvertible, Sendable {
  /// The focus state (`focused`, `unavailable` …).
  public var state: String
  /// What the pair is: the title, the ring, the border …
  public var what: String
  /// The colour drawn.
  public var foreground: RGB
  /// What it is drawn on.
  public var background: RGB
  /// The ratio it needs.
  public var minimum: Double

  /// A pair of `state`'s `what`: `foreground` on `background`, needing `minimum`.
  public init(state: String, what: String, foreground: RGB, background: RGB, minimum: Double) {
    self.state = state
    self.what = what
    self.foreground = foreground
    self.background = background
    self.minimum = minimum
  }

  /// The WCAG contrast ratio of the two colours.
  public var ratio: Double { foreground.contrastRatio(with: background) }

  /// `focused title: 7.2:1 (needs 4.5)`.
  public var description: String {
    "\(state) \(what): \((ratio * 100).rounded() / 100):1 (needs \(minimum))"
  }

  /// The five focus states every palette covers.
  public static let states = ["unfocused", "focused", "highlighted", "selected", "unavailable"]

  /// Prints `pairs` under `name` (the table docs/accessibility.md shows) and returns what is
  /// wrong: each pair under its minimum, and each focus state no pair covers.
  public static func problems(_ pairs: [ContrastPair], named name: String) -> [String] {
    print("\(name):")
    var problems: [String] = []
    for pair in pairs {
      print("  \(pair)")
      if pair.ratio < pair.minimum { problems.append("\(name): \(pair)") }
    }
    for state in states where !pairs.contains(where: { $0.state == state }) {
      problems.append("\(name) does not cover \(state)")
    }
    return problems
  }
}
