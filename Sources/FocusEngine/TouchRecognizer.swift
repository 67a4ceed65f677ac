/// Turns a Siri Remote touch-surface stream into focus steps, tilt and coasting.
///
/// The surface spans x, y ∈ [−1, 1] (2 units across), y growing downwards like the screen.
/// Travel is measured from the landing point, re-anchored after every step:
/// - the first axis to leave a small dead zone (``Configuration/deadZone``) wins for the rest
///   of the touch, and travel across it only tilts, damped (``Configuration/crossAxisDamping``);
/// - each crossing of the travel threshold moves focus one step and re-anchors: a third of the
///   surface horizontally, a quarter vertically (``Configuration/stepX``, ``stepY``) — tvOS
///   asks for slightly more travel sideways, where rows are long and a stray step costs more;
/// - lifting off faster than ``Configuration/coastSpeed`` coasts: the finger's release velocity
///   v decelerates at ``Configuration/deceleration`` (a) for a coast distance v²/2a, and every
///   threshold it covers is one more step (capped by ``Configuration/maxCoastSteps``), so a
///   flick travels further than a drag and a fast long swipe further than a fast short one;
/// - movement that never crosses a threshold and lifts slowly only tilted the item.
///
/// The constants are not published by Apple; they were chosen so the feel matches what tvOS
/// does on a 2nd-generation Siri Remote (a deliberate drag of about 60% of the surface moves one
/// poster, a flick moves a row's worth), and they are parameters so a product can tune them.
/// Velocity is the displacement over the last ``Configuration/velocityWindow`` of samples, from
/// the remote's own timestamps: network jitter cannot change the result.
public struct TouchRecognizer: Sendable, Equatable {
  /// The recognizer's tunables.
  public struct Configuration: Sendable, Equatable {
    /// Horizontal travel per step, in surface units (a third of the 2-unit surface).
    public var stepX = 2.0 / 3.0
    /// Vertical travel per step (a quarter of the surface).
    public var stepY = 0.5
    /// Travel that decides the axis.
    public var deadZone = 0.06
    /// How much travel across the winning axis still tilts.
    public var crossAxisDamping = 0.3
    /// Release speed (units per second) above which the touch coasts.
    public var coastSpeed = 1.5
    /// Coasting deceleration, units per second².
    public var deceleration = 6.0
    /// The most extra steps one coast may make.
    public var maxCoastSteps = 12
    /// How far back the release velocity looks, in nanoseconds (50 ms).
    public var velocityWindow: UInt64 = 50_000_000

    /// The defaults above.
    public init() {}
  }

  /// A touch phase.
  public enum Phase: String, Sendable, Hashable, CaseIterable {
    case began, moved, ended, cancelled
  }

  /// What a sample did.
  public enum Output: Sendable, Equatable {
    /// One focus step.
    case step(Direction)
    /// Extra steps after a fast lift-off, with the release speed.
    case coast(Direction, steps: Int, speed: Double)
  }

  /// The tunables.
  public var configuration: Configuration
  /// The tilt the finger gives the focused item, each axis in [−1, 1]; zero at rest.
  public private(set) var tilt: Point = .zero
  /// Whether a finger is on the surface.
  public private(set) var touching = false
  private var anchor: Point = .zero
  private var axis: Axis?
  /// Recent samples (position, time), newest last, for the release velocity.
  private var recent: [Sample] = []

  private struct Sample: Sendable, Equatable {
    var point: Point
    var time: UInt64
  }

  private enum Axis: Equatable { case horizontal, vertical }

  /// A recognizer with `configuration`.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
  }

  /// Feeds one sample; returns the steps it caused, in order.
  public mutating func handle(_ phase: Phase, x: Double, y: Double, at time: UInt64) -> [Output] {
    let point = Point(x: min(1, max(-1, x)), y: min(1, max(-1, y)))
    switch phase {
    case .began:
      touching = true
      anchor = point
      axis = nil
      tilt = .zero
      recent = [Sample(point: point, time: time)]
      return []
    case .moved, .ended:
      guard touching else { return [] }  // A stray sample without a landing: ignored.
      var outputs = track(point, time)
      if phase == .ended {
        outputs += coast()
        touching = false
        tilt = .zero
        recent = []
      }
      return outputs
    case .cancelled:
      touching = false
      tilt = .zero
      recent = []
      return []
    }
  }

  private mutating func track(_ point: Point, _ time: UInt64) -> [Output] {
    recent.append(Sample(point: point, time: time))
    if let newest = recent.last?.time {
      recent.removeAll { $0.time < newest && newest - $0.time > configuration.velocityWindow }
      if recent.count > 64 { recent.removeFirst(recent.count - 64) }
    }
    var dx = point.x - anchor.x
    var dy = point.y - anchor.y
    if axis == nil, max(abs(dx), abs(dy)) >= configuration.deadZone {
      axis = abs(dx) >= abs(dy) ? .horizontal : .vertical
    }
    var outputs: [Output] = []
    switch axis {
    case .horizontal:
      while abs(dx) >= configuration.stepX {
        let direction: Direction = dx > 0 ? .right : .left
        outputs.append(.step(direction))
        anchor.x += dx > 0 ? configuration.stepX : -configuration.stepX
        dx = point.x - anchor.x
      }
      dy *= configuration.crossAxisDamping
    case .vertical:
      while abs(dy) >= configuration.stepY {
        let direction: Direction = dy > 0 ? .down : .up
        outputs.append(.step(direction))
        anchor.y += dy > 0 ? configuration.stepY : -configuration.stepY
        dy = point.y - anchor.y
      }
      dx *= configuration.crossAxisDamping
    case nil:
      break
    }
    tilt = Point(
      x: min(1, max(-1, dx / configuration.stepX)), y: min(1, max(-1, dy / configuration.stepY)))
    return outputs
  }

  /// The release velocity along the winning axis, units per second (signed).
  public var releaseVelocity: Double {
    guard let first = recent.first, let last = recent.last, last.time > first.time else {
      return 0
    }
    let seconds = Double(last.time - first.time) / 1e9
    switch axis {
    case .horizontal: return (last.point.x - first.point.x) / seconds
    case .vertical: return (last.point.y - first.point.y) / seconds
    case nil: return 0
    }
  }

  private func coast() -> [Output] {
    let velocity = releaseVelocity
    let speed = abs(velocity)
    guard let axis, speed >= configuration.coastSpeed else { return [] }
    let distance = speed * speed / (2 * configuration.deceleration)
    let step = axis == .horizontal ? configuration.stepX : configuration.stepY
    let steps = min(configuration.maxCoastSteps, Int(distance / step))
    guard steps > 0 else { return [] }
    let direction: Direction =
      axis == .horizontal ? (velocity > 0 ? .right : .left) : (velocity > 0 ? .down : .up)
    return [.coast(direction, steps: steps, speed: speed)]
  }
}
