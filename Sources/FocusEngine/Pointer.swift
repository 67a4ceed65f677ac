/// The phase of a pointer sample (a Magic Remote, a mouse, a trackpad, the web page's mouse).
public enum PointerPhase: String, Sendable, Hashable, CaseIterable {
  /// The pointer moved (or is hovering): `x`, `y` are its position, or deltas.
  case moved
  /// A button went down at the pointer.
  case down
  /// A button went up; with no press held by the pointer, a finger or device lifted off: a
  /// fast enough release is a flick.
  case up
  /// The gesture was interrupted: a held press ends without activating, no flick.
  case cancelled
  /// A scroll wheel or two-finger scroll: `x`, `y` are deltas in points.
  case scroll
}

/// One sample from a pointing device, as a remote sends it. Times are the remote's monotonic
/// clock in nanoseconds (as ``RemoteInput``).
public struct PointerEvent: Sendable, Hashable {
  /// What happened.
  public var phase: PointerPhase
  /// Canvas x in points, or a delta when `relative` (always a delta for `scroll`).
  public var x: Double
  /// Canvas y in points (growing downwards), or a delta when `relative`.
  public var y: Double
  /// Whether `x`, `y` are deltas from the last position (a relative device: a mouse, a
  /// trackpad) rather than canvas points (an absolute device: a Magic Remote, a web page).
  public var relative: Bool
  /// The buttons held, bit 0 the primary button (``primaryButton``).
  public var buttons: UInt32
  /// The remote's monotonic clock at the sample, in nanoseconds.
  public var at: UInt64

  /// Creates a sample.
  public init(
    _ phase: PointerPhase, x: Double, y: Double, relative: Bool = false, buttons: UInt32 = 0,
    at: UInt64
  ) {
    self.phase = phase
    self.x = x
    self.y = y
    self.relative = relative
    self.buttons = buttons
    self.at = at
  }

  /// The primary (left) button's bit.
  public static let primaryButton: UInt32 = 1

  /// Whether both coordinates are finite (the wire refuses others).
  public var isFinite: Bool { x.isFinite && y.isFinite }
}

/// A pointer sample resolved to the canvas by the remote's ``PointerTracker``: what the
/// reducer acts on.
public struct PointerSample: Sendable, Hashable {
  /// What happened.
  public var phase: PointerPhase
  /// The pointer's position on the canvas (clamped to it), in points.
  public var position: Point
  /// The pointer's velocity in points per second (the release velocity for `up`).
  public var velocity: Point
  /// For `scroll`: the scroll deltas in points; zero otherwise.
  public var scroll: Point
  /// The buttons held.
  public var buttons: UInt32
  /// The remote's clock, in nanoseconds.
  public var at: UInt64

  /// Creates a sample.
  public init(
    _ phase: PointerPhase, position: Point, velocity: Point = .zero, scroll: Point = .zero,
    buttons: UInt32 = 0, at: UInt64
  ) {
    self.phase = phase
    self.position = position
    self.velocity = velocity
    self.scroll = scroll
    self.buttons = buttons
    self.at = at
  }
}

/// How an item reacts when the pointer targets it (UIKit's `UIPointerEffect`).
public enum PointerEffectStyle: String, Sendable, Hashable, CaseIterable {
  /// ``automatic`` resolves by the item: `none` for a text field (the pointer becomes an
  /// I-beam), `lift` for a poster (an item with parallax layers, or both sides at least
  /// ``PointerRules/posterSide`` points), `highlight` for other (small) controls.
  case automatic
  /// The pointer morphs into a rounded rectangle of the item's shape behind it, moving with
  /// a gentle parallax (``PointerRules/highlightParallax``).
  case highlight
  /// The pointer fades under the item, which scales up with a shadow and a specular
  /// highlight (the tvOS lift of ``Parallax``).
  case lift
  /// A scale, tint and shadow on the item; the pointer keeps its shape.
  case hover
  /// No effect: the pointer keeps its shape and the item its look.
  case none
}

/// The pointer's built-in shape names; an item may name its own (an app's custom shape).
public enum PointerShape {
  /// The default: a small circle.
  public static let circle = "circle"
  /// Over a text field: a text insertion bar.
  public static let iBeam = "ibeam"
  /// Under `highlight`: the targeted item's own shape (its frame and corner radius).
  public static let item = "item"
}

/// The constants of the pointer rules (docs/layout-format.md "Pointer").
public enum PointerRules {
  /// Magnetism: over an item with `pointerMagnetism`, the drawn pointer sits this fraction of
  /// the way from the tracked position to the item's centre.
  public static let magnetism = 0.25
  /// Under `highlight` the pointer is the item's shape, centred on the item and moved by this
  /// fraction of the tracked position's offset from the centre (the gentle parallax).
  public static let highlightParallax = 0.1
  /// Flick projection: UIKit's fast deceleration rate per millisecond
  /// (`UIScrollView.DecelerationRate.fast`); a release at velocity v travels
  /// v · r / (1 − r) / 1000 ≈ 0.099 s × v further (the projection of WWDC18 "Designing Fluid
  /// Interfaces").
  public static let flickDecelerationRate = 0.99
  /// A release slower than this (points per second) is not a flick.
  public static let flickMinimumSpeed = 400.0
  /// The smaller side, in points, from which an `automatic` item counts as a poster (`lift`).
  public static let posterSide = 120.0

  /// How far a release at `velocity` carries the pointer, in points per axis.
  public static func projection(of velocity: Point) -> Point {
    let seconds = flickDecelerationRate / (1 - flickDecelerationRate) / 1000
    return Point(x: velocity.x * seconds, y: velocity.y * seconds)
  }
}

/// The session's pointer: where it is, how fast it moves, whether it shows and what it
/// targets. Changed only by the reducer.
public struct PointerState: Sendable, Equatable {
  /// The tracked position on the canvas, in points (before magnetism).
  public internal(set) var position: Point
  /// The velocity of the last move, in points per second.
  public internal(set) var velocity: Point
  /// Whether the pointer is shown: since its last move, no directional input and no idle
  /// timeout.
  public internal(set) var visible: Bool
  /// The item the pointer targets (its hit region holds the pointer), if any.
  public internal(set) var target: String?
  /// The remote's clock at the pointer's last sample, in nanoseconds.
  public internal(set) var lastActivity: UInt64
  /// Whether the select press held now began with the pointer's button.
  public internal(set) var pressing: Bool

  /// No pointer yet: hidden at the origin.
  public init() {
    position = .zero
    velocity = .zero
    visible = false
    target = nil
    lastActivity = 0
    pressing = false
  }
}

/// What a renderer draws for the pointer.
public struct PointerPresentation: Sendable, Hashable {
  /// Where the pointer is drawn (after magnetism), canvas points.
  public var position: Point
  /// Whether it is shown.
  public var visible: Bool
  /// Its shape's name (``PointerShape``, or an item's custom name).
  public var shape: String
  /// The targeted item's resolved effect (never `automatic`); `none` without a target.
  public var effect: PointerEffectStyle
  /// The targeted item, if any.
  public var target: String?

  /// Creates a presentation.
  public init(
    position: Point, visible: Bool, shape: String, effect: PointerEffectStyle, target: String?
  ) {
    self.position = position
    self.visible = visible
    self.shape = shape
    self.effect = effect
    self.target = target
  }
}

/// One remote's pointer tracking: its own position (for relative devices) and velocity.
public struct PointerTracker: Sendable, Equatable {
  /// The remote's last position on the canvas, if it has pointed.
  public private(set) var position: Point?
  /// The remote's clock at its last sample.
  public private(set) var lastAt: UInt64?
  /// The velocity of the last move, points per second.
  public private(set) var velocity: Point = .zero

  /// A tracker that has seen nothing.
  public init() {}

  /// Resolves `event` on a canvas of `canvas` size: absolute positions and relative deltas
  /// are clamped to the canvas (a pointer far off the canvas sits on its edge); the velocity
  /// is the last move's distance over its time. A relative first sample starts from `start`
  /// (the session's pointer) or the canvas centre. Nil for non-finite coordinates.
  public mutating func resolve(_ event: PointerEvent, canvas: Size, start: Point?)
    -> PointerSample?
  {
    guard event.isFinite else { return nil }
    let origin =
      position ?? start ?? Point(x: canvas.width / 2, y: canvas.height / 2)
    if event.phase == .scroll {
      return PointerSample(
        .scroll, position: origin, scroll: Point(x: event.x, y: event.y),
        buttons: event.buttons, at: event.at)
    }
    let raw =
      event.relative
      ? Point(x: origin.x + event.x, y: origin.y + event.y) : Point(x: event.x, y: event.y)
    let next = Point(
      x: Self.clamp(raw.x, canvas.width), y: Self.clamp(raw.y, canvas.height))
    if let lastAt, let previous = position, event.at > lastAt, event.phase == .moved {
      let seconds = Double(event.at - lastAt) / 1e9
      velocity = Point(x: (next.x - previous.x) / seconds, y: (next.y - previous.y) / seconds)
    } else if event.phase == .moved && position == nil {
      velocity = .zero
    }
    position = next
    lastAt = event.at
    return PointerSample(
      event.phase, position: next, velocity: velocity, buttons: event.buttons, at: event.at)
  }

  private static func clamp(_ value: Double, _ limit: Double) -> Double {
    min(max(value, 0), limit)
  }
}
