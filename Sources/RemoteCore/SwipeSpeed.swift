/// Named swipe speeds, in surface units per second (the surface is 2 units wide): `slow` is a
/// deliberate drag that stays under the coasting threshold, `fast` a flick that coasts several
/// items.
public enum SwipeSpeed: String, CaseIterable, Sendable {
  /// 0.8 units/s at release: no coasting.
  case slow
  /// 2.5 units/s: the default.
  case medium
  /// 6 units/s: a flick.
  case fast

  /// The release velocity, surface units per second.
  public var velocity: Double {
    switch self {
    case .slow: 0.8
    case .medium: 2.5
    case .fast: 6.0
    }
  }
}
