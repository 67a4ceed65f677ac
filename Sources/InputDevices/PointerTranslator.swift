/// Mice and touchpads, pure: the one place pointer devices are mapped, to the pointer model
/// (the default) or to the Siri Remote's touch surface.
///
/// **As the pointer** (``Model/pointer``, iPadOS/LG Magic Remote style):
/// - A **mouse**'s counts move the pointer by ``PointerSettings/speed`` canvas points a count
///   (1 by default: like a desktop without acceleration, a 1,000-CPI mouse crosses the
///   1920-point canvas in about two inches); one kernel frame (`SYN_REPORT`) is one move.
/// - A **touchpad** moves it by the finger's travel: the pad's full width is
///   ``padWidthPoints`` × speed canvas points (a laptop pad's feel); lifting the finger sends
///   nothing (the pointer stays, and hides after the layout's idle timeout).
/// - `BTN_LEFT` (a mouse's button, a touchpad's click) is the pointer's primary button: down
///   and up, which the broker turns into a click on the target.
/// - A wheel notch scrolls by ``wheelPoints`` (`REL_WHEEL` up is a negative `dy`).
///
/// **As the touch surface** (``Model/touchSurface``):
/// - A **touchpad** (absolute X/Y, `BTN_TOUCH`): a touch begins at the surface's centre
///   (0, 0) where the finger lands, moves by the finger's travel (the pad's full width is the
///   surface's 2 units) and ends when the finger lifts: a quick stroke is a swipe whose
///   velocity is the finger's, from the kernel's timestamps.
/// - A **mouse** (relative X/Y): motion begins a touch at (0, 0) and moves it by
///   ``unitsPerCount`` a count; the touch ends, stamped at the last motion, once the mouse has
///   rested ``restInterval`` (so a flick is a swipe with the flick's velocity).
/// - `BTN_LEFT` is a click: select down and up, with the button's times (holding it holds
///   select).
///
/// Samples are sent once per kernel frame (at `SYN_REPORT`); touch positions are clamped to
/// −1…1 (the broker clamps the pointer to the canvas).
public struct PointerTranslator: Sendable, Equatable {
  /// Surface units a mouse count moves (about a 1.2-unit swipe per 360 counts: a third of
  /// an inch on an 1000-CPI mouse).
  public static let unitsPerCount = 1.0 / 300
  /// How long a mouse rests before its touch ends, nanoseconds.
  public static let restInterval: UInt64 = 80_000_000

  /// Canvas points a touchpad's full width moves the pointer (before the speed).
  public static let padWidthPoints = 1_200.0
  /// Canvas points one wheel notch scrolls.
  public static let wheelPoints = 40.0

  /// Absolute axis ranges (a touchpad's X and Y), by code.
  public let axes: [UInt16: AxisRange]
  /// Where the device's input goes.
  public let settings: PointerSettings
  private var buttons: UInt32 = 0
  private var wheel = (x: 0.0, y: 0.0)
  /// A touchpad finger's position at the last frame (the pointer model moves by the change).
  private var previous: (x: Int32?, y: Int32?) = (nil, nil)
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

  /// A translator for a pointer with these axis ranges, to the model `settings` choose.
  public init(axes: [UInt16: AxisRange] = [:], settings: PointerSettings = .init()) {
    self.axes = axes
    self.settings = settings
  }

  private var asPointer: Bool { settings.model == .pointer }

  public static func == (lhs: PointerTranslator, rhs: PointerTranslator) -> Bool {
    lhs.axes == rhs.axes && lhs.settings == rhs.settings && lhs.touching == rhs.touching
      && lhs.x == rhs.x && lhs.y == rhs.y && lhs.lastMotionAt == rhs.lastMotionAt
      && lhs.buttons == rhs.buttons
  }

  /// When a resting mouse's touch ends, if one is under way.
  public var nextDeadline: UInt64? { mouseTouch ? lastMotionAt + Self.restInterval : nil }

  /// Handles one kernel event.
  public mutating func handle(_ event: InputEvent) -> [DeviceOutput] {
    switch (event.type, event.code) {
    case (InputEventCode.evKey, InputEventCode.btnLeft) where asPointer:
      switch event.value {
      case 1:
        buttons |= 1
        return [.pointer(.down, dx: 0, dy: 0, buttons: buttons, at: event.time)]
      case 0 where buttons & 1 != 0:
        buttons &= ~1
        return [.pointer(.up, dx: 0, dy: 0, buttons: buttons, at: event.time)]
      default: return []
      }
    case (InputEventCode.evKey, InputEventCode.btnLeft):
      switch event.value {
      case 1: return [.key(.select, .down, at: event.time)]
      case 0: return [.key(.select, .up, at: event.time)]
      default: return []
      }
    case (InputEventCode.evKey, InputEventCode.btnTouch) where asPointer:
      // The finger's first frame sets where it landed (a multitouch pad sends the position
      // after BTN_TOUCH in the same frame): no jump from where the last stroke ended.
      touching = event.value == 1
      previous = (nil, nil)
      changed = false
      return []
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
    case (InputEventCode.evRel, InputEventCode.relWheel) where asPointer:
      wheel.y -= Double(event.value)
      return []
    case (InputEventCode.evRel, InputEventCode.relHWheel) where asPointer:
      wheel.x += Double(event.value)
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

  /// Ends any touch (the device went away, or the kernel dropped events); as the pointer, a
  /// button still down is cancelled (no click).
  public mutating func releaseAll(at time: UInt64) -> [DeviceOutput] {
    if asPointer {
      let held = buttons != 0
      buttons = 0
      touching = false
      previous = (nil, nil)
      relative = (0, 0)
      wheel = (0, 0)
      changed = false
      return held ? [.pointer(.cancelled, dx: 0, dy: 0, buttons: 0, at: time)] : []
    }
    let ending = (touching && began) || mouseTouch
    touching = false
    mouseTouch = false
    relative = (0, 0)
    changed = false
    return ending ? [.touch(.ended, x: x, y: y, at: time)] : []
  }

  /// A kernel frame as the pointer: one move (a mouse's counts, or a finger's travel since the
  /// last frame) and one scroll.
  private mutating func pointerFrame(at time: UInt64) -> [DeviceOutput] {
    var outputs: [DeviceOutput] = []
    var dx = relative.x * settings.speed
    var dy = relative.y * settings.speed
    relative = (0, 0)
    if touching, previous.x == nil, previous.y == nil {
      previous = latest
      changed = false
    } else if touching, changed {
      changed = false
      let scale = Self.padWidthPoints * settings.speed / 2
      dx += scale * travel(InputEventCode.absX, from: previous.x, to: latest.x)
      // The pad's height uses the width's scale, so a diagonal stroke keeps its angle.
      dy +=
        scale * travel(InputEventCode.absY, from: previous.y, to: latest.y)
        * heightOverWidth
      previous = latest
    }
    if dx != 0 || dy != 0 {
      outputs.append(.pointer(.moved, dx: dx, dy: dy, buttons: buttons, at: time))
    }
    if wheel.x != 0 || wheel.y != 0 {
      outputs.append(
        .pointer(
          .scroll, dx: wheel.x * Self.wheelPoints, dy: wheel.y * Self.wheelPoints,
          buttons: buttons, at: time))
      wheel = (0, 0)
    }
    return outputs
  }

  /// The pad's height over its width, in counts (1 if unknown): `travel` spans each axis's own
  /// range, so a Y travel is scaled back to the X axis's units.
  private var heightOverWidth: Double {
    guard let width = axes[InputEventCode.absX], let height = axes[InputEventCode.absY],
      width.maximum > width.minimum, height.maximum > height.minimum
    else { return 1 }
    return Double(height.maximum - height.minimum) / Double(width.maximum - width.minimum)
  }

  private mutating func frame(at time: UInt64) -> [DeviceOutput] {
    if asPointer { return pointerFrame(at: time) }
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

/// Where a mouse's or touchpad's input goes, and how fast (a mapping file's `"pointer"`).
public struct PointerSettings: Sendable, Equatable {
  /// The pointer model, or the Siri Remote's touch surface.
  public enum Model: String, Sendable, Equatable, CaseIterable {
    case pointer
    case touchSurface = "touch-surface"
  }

  /// Where the input goes (default: the pointer).
  public var model: Model
  /// Canvas points a mouse count moves the pointer (a touchpad's travel scales with it).
  public var speed: Double

  /// Settings (default: the pointer, 1 point a count).
  public init(model: Model = .pointer, speed: Double = 1) {
    self.model = model
    self.speed = speed
  }
}
