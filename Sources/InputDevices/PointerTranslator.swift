/// Mice and touchpads → the touch surface, pure: the one place pointer devices are mapped
/// (a pointer model, when the project has one, gets its output here too).
///
/// - A **touchpad** (absolute X/Y, `BTN_TOUCH`): a touch begins at the surface's centre
///   (0, 0) where the finger lands, moves by the finger's travel (the pad's full width is the
///   surface's 2 units) and ends when the finger lifts: a quick stroke is a swipe whose
///   velocity is the finger's, from the kernel's timestamps.
/// - A **mouse** (relative X/Y): motion begins a touch at (0, 0) and moves it by
///   ``unitsPerCount`` a count; the touch ends, stamped at the last motion, once the mouse has
///   rested ``restInterval`` (so a flick is a swipe with the flick's velocity).
/// - `BTN_LEFT` (a mouse's button, a touchpad's click) is a click: select down and up, with
///   the button's times (holding it holds select).
///
/// Samples are sent once per kernel frame (at `SYN_REPORT`), positions clamped to −1…1.
public struct PointerTranslator: Sendable, Equatable {
  /// Surface units a mouse count moves (about a 1.2-unit swipe per 360 counts: a third of
  /// an inch on an 1000-CPI mouse).
  public static let unitsPerCount = 1.0 / 300
  /// How long a mouse rests before its touch ends, nanoseconds.
  public static let restInterval: UInt64 = 80_000_000

  /// Absolute axis ranges (a touchpad's X and Y), by code.
  public let axes: [UInt16: AxisRange]
  private var touching = false
  private var began = false
  private var x = 0.0
  private var y = 0.0
  private var origin: (x: Int32?, y: Int32?) = (nil, nil)
  private var latest: (x: Int32?, y: Int32?) = (nil, nil)
  private var relative = (x: 0.0, y: 0.0)
  private var changed = false
  private var lastMotionAt: UInt64 = 0
  private var mouseTouch = false

  /// A translator for a pointer with these axis ranges.
  public init(axes: [UInt16: AxisRange] = [:]) { self.axes = axes }

  public static func == (lhs: PointerTranslator, rhs: PointerTranslator) -> Bool {
    lhs.axes == rhs.axes && lhs.touching == rhs.touching && lhs.x == rhs.x && lhs.y == rhs.y
      && lhs.lastMotionAt == rhs.lastMotionAt
  }

  /// When a resting mouse's touch ends, if one is under way.
  public var nextDeadline: UInt64? { mouseTouch ? lastMotionAt + Self.restInterval : nil }

  /// Handles one kernel event.
  public mutating func handle(_ event: InputEvent) -> [DeviceOutput] {
    switch (event.type, event.code) {
    case (InputEventCode.evKey, InputEventCode.btnLeft):
      switch event.value {
      case 1: return [.key(.select, .down, at: event.time)]
      case 0: return [.key(.select, .up, at: event.time)]
      default: return []
      }
    case (InputEventCode.evKey, InputEventCode.btnTouch):
      if event.value == 1, !touching {
        touching = true
        began = false
        origin = latest
        x = 0
        y = 0
        return []
      }
      if event.value == 0, touching {
        touching = false
        return began ? [.touch(.ended, x: x, y: y, at: event.time)] : []
      }
      return []
    case (InputEventCode.evAbs, InputEventCode.absX):
      latest.x = event.value
      if touching, origin.x == nil { origin.x = event.value }
      changed = changed || touching
      return []
    case (InputEventCode.evAbs, InputEventCode.absY):
      latest.y = event.value
      if touching, origin.y == nil { origin.y = event.value }
      changed = changed || touching
      return []
    case (InputEventCode.evRel, InputEventCode.relX):
      relative.x += Double(event.value)
      return []
    case (InputEventCode.evRel, InputEventCode.relY):
      relative.y += Double(event.value)
      return []
    case (InputEventCode.evSyn, InputEventCode.synReport):
      return frame(at: event.time)
    case (InputEventCode.evSyn, InputEventCode.synDropped):
      return releaseAll(at: event.time)
    default:
      return []
    }
  }

  /// Ends a resting mouse's touch when its rest is over (`time` at or past ``nextDeadline``).
  public mutating func tick(at time: UInt64) -> [DeviceOutput] {
    guard mouseTouch, time >= lastMotionAt + Self.restInterval else { return [] }
    mouseTouch = false
    return [.touch(.ended, x: x, y: y, at: lastMotionAt)]
  }

  /// Ends any touch (the device went away, or the kernel dropped events).
  public mutating func releaseAll(at time: UInt64) -> [DeviceOutput] {
    let ending = (touching && began) || mouseTouch
    touching = false
    mouseTouch = false
    relative = (0, 0)
    changed = false
    return ending ? [.touch(.ended, x: x, y: y, at: time)] : []
  }

  private mutating func frame(at time: UInt64) -> [DeviceOutput] {
    var outputs: [DeviceOutput] = []
    if relative.x != 0 || relative.y != 0 {
      if !mouseTouch {
        mouseTouch = true
        x = 0
        y = 0
        outputs.append(.touch(.began, x: 0, y: 0, at: time))
      }
      x = Self.clamp(x + relative.x * Self.unitsPerCount)
      y = Self.clamp(y + relative.y * Self.unitsPerCount)
      relative = (0, 0)
      lastMotionAt = time
      outputs.append(.touch(.moved, x: x, y: y, at: time))
    }
    guard touching else { return outputs }
    if !began {
      began = true
      outputs.append(.touch(.began, x: 0, y: 0, at: time))
      changed = false
      return outputs
    }
    guard changed else { return outputs }
    changed = false
    x = Self.clamp(travel(InputEventCode.absX, from: origin.x, to: latest.x))
    y = Self.clamp(travel(InputEventCode.absY, from: origin.y, to: latest.y))
    outputs.append(.touch(.moved, x: x, y: y, at: time))
    return outputs
  }

  /// The travel along `code` in surface units: the axis's full range is 2.
  private func travel(_ code: UInt16, from start: Int32?, to end: Int32?) -> Double {
    guard let start, let end, let range = axes[code], range.maximum > range.minimum else {
      return 0
    }
    return 2 * (Double(end) - Double(start)) / (Double(range.maximum) - Double(range.minimum))
  }

  private static func clamp(_ value: Double) -> Double { min(1, max(-1, value)) }
}
