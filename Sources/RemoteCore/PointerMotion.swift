import TenFootProtocol

/// What `tenfoot-remote point` does with the pointer, in canvas points.
public enum PointerMotion: Sendable, Equatable {
  /// Move to a canvas point (an absolute device).
  case to(x: Double, y: Double)
  /// Move by a delta (a relative device).
  case by(dx: Double, dy: Double)
  /// Move by a delta at `velocity` points per second and lift off: a flick.
  case flick(dx: Double, dy: Double, velocity: Double)
  /// Press and release the primary button where the pointer is.
  case click

  /// How many move samples a flick sends (the last two set the release velocity).
  public static let flickSamples = 6

  /// `point X,Y` or `point to X,Y`, `point by DX,DY`, `point flick DX,DY V`, `point click`:
  /// the words after `point`.
  public static func parse(_ words: [String]) throws(RemoteError) -> PointerMotion {
    let usage = "point takes: X,Y | to X,Y | by DX,DY | flick DX,DY VELOCITY | click"
    guard let first = words.first else { throw .invalidCommand(problem: usage) }
    switch first {
    case "click":
      guard words.count == 1 else { throw .invalidCommand(problem: usage) }
      return .click
    case "to":
      guard words.count == 2 else { throw .invalidCommand(problem: usage) }
      let (x, y) = try pair(words[1])
      return .to(x: x, y: y)
    case "by":
      guard words.count == 2 else { throw .invalidCommand(problem: usage) }
      let (dx, dy) = try pair(words[1])
      return .by(dx: dx, dy: dy)
    case "flick":
      guard words.count == 3 else { throw .invalidCommand(problem: usage) }
      let (dx, dy) = try pair(words[1])
      return try checkedFlick(dx: dx, dy: dy, velocity: try velocity(words[2]))
    default:
      guard words.count == 1 else { throw .invalidCommand(problem: usage) }
      let (x, y) = try pair(first)
      return .to(x: x, y: y)
    }
  }

  /// A flick with its ranges checked: a delta that is not zero, a velocity above 0.
  public static func checkedFlick(dx: Double, dy: Double, velocity: Double) throws(RemoteError)
    -> PointerMotion
  {
    guard dx != 0 || dy != 0 else {
      throw .invalidCommand(problem: "point flick: the delta may not be 0,0")
    }
    guard velocity.isFinite, velocity > 0 else {
      throw .invalidCommand(
        problem: "point flick: the velocity is above 0 points per second, not \(velocity)")
    }
    return .flick(dx: dx, dy: dy, velocity: velocity)
  }

  /// `X,Y`: two finite numbers (canvas points; off the canvas is clamped by the broker).
  public static func pair(_ word: String) throws(RemoteError) -> (Double, Double) {
    let parts = word.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite,
      y.isFinite
    else {
      throw .invalidCommand(
        problem: "bad point \"\(word)\" (X,Y in canvas points, like 960,540)")
    }
    return (x, y)
  }

  /// A velocity in points per second: a finite number above 0.
  public static func velocity(_ word: String) throws(RemoteError) -> Double {
    guard let value = Double(word), value.isFinite, value > 0 else {
      throw .invalidCommand(
        problem: "bad velocity \"\(word)\" (points per second above 0, like 3000)")
    }
    return value
  }

  /// For output lines.
  public var name: String {
    switch self {
    case .to: "point"
    case .by: "point by"
    case .flick: "point flick"
    case .click: "point click"
    }
  }
}
