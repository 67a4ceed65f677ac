import FocusEngine

/// Synthesizes realistic Siri Remote touch streams: samples at 120 Hz along a straight path,
/// the finger accelerating into the stroke and leaving the surface at the release velocity
/// asked for.
///
/// Velocity ramps linearly from half the release velocity to the release velocity, so the
/// stroke takes `2·distance / (1.5·velocity)` seconds; the recognizer measures the release
/// velocity over its last 50 ms, which this profile delivers within a few percent.
public enum GestureSynthesizer {
  /// One synthesized sample, `at` after the stroke starts.
  public struct Sample: Sendable, Equatable {
    /// The phase.
    public var phase: TouchRecognizer.Phase
    /// Surface position, each axis in [−1, 1].
    public var x: Double
    /// Surface position.
    public var y: Double
    /// The time from the first sample.
    public var at: Duration

    /// A sample `seconds` after the first (the synthesizer's unit, as velocities are per
    /// second).
    init(phase: TouchRecognizer.Phase, x: Double, y: Double, at seconds: Double) {
      self.phase = phase
      self.x = x
      self.y = y
      at = .seconds(seconds)
    }
  }

  /// The sampling rate of a Siri Remote's touch surface, in hertz.
  public static let rate = 120.0

  /// A swipe along a direction: from a point before the centre through `distance` units,
  /// drifting `drift` units across the direction on the way (a thumb's diagonal).
  public static func swipe(
    _ direction: Direction, velocity: Double, distance: Double, drift: Double = 0
  ) -> [Sample] {
    let (dx, dy): (Double, Double) =
      switch direction {
      case .left: (-1, 0)
      case .up: (0, -1)
      case .down: (0, 1)
      case .right: (1, 0)
      }
    let start = (
      x: -dx * distance / 2 - abs(dy) * drift / 2, y: -dy * distance / 2 - abs(dx) * drift / 2
    )
    let duration = 2 * distance / (1.5 * velocity)
    let count = max(2, Int(duration * rate))
    var samples = [Sample(phase: .began, x: start.x, y: start.y, at: 0)]
    let v0 = velocity / 2
    let acceleration = (velocity - v0) / duration
    for index in 1...count {
      let t = duration * Double(index) / Double(count)
      let travelled = v0 * t + acceleration * t * t / 2
      let across = drift * travelled / distance
      samples.append(
        Sample(
          phase: index == count ? .ended : .moved,
          x: clamp(start.x + dx * travelled + abs(dy) * across),
          y: clamp(start.y + dy * travelled + abs(dx) * across), at: t))
    }
    return samples
  }

  /// Touch down at the centre, slide to (x, y) over `sliding` easing in and out, rest there
  /// for `resting` (the item stays tilted), then lift.
  public static func drag(
    toX x: Double, y: Double, duration sliding: Duration, rest resting: Duration
  )
    -> [Sample]
  {
    // Samples are placed in seconds (the synthesizer's unit, as velocities are per second).
    let duration = sliding / .seconds(1)
    let rest = resting / .seconds(1)
    var samples = [Sample(phase: .began, x: 0, y: 0, at: 0)]
    let moving = max(1, Int(duration * rate))
    for index in 1...moving {
      let progress = Double(index) / Double(moving)
      let eased = progress * progress * (3 - 2 * progress)  // smoothstep
      samples.append(
        Sample(phase: .moved, x: clamp(x * eased), y: clamp(y * eased), at: duration * progress))
    }
    let resting = Int(rest * rate)
    for index in 0..<resting {
      samples.append(
        Sample(
          phase: .moved, x: clamp(x), y: clamp(y), at: duration + Double(index + 1) / rate))
    }
    let end = duration + Double(resting + 1) / rate
    samples.append(Sample(phase: .ended, x: clamp(x), y: clamp(y), at: end))
    return samples
  }

  private static func clamp(_ value: Double) -> Double { min(1, max(-1, value)) }
}
