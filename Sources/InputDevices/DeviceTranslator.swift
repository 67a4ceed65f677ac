import FocusEngine

/// What the translator asks its shell to do.
public enum DeviceOutput: Sendable, Equatable {
  /// Send this key event to the broker, stamped `at` (the kernel's time).
  case key(RemoteButton, ButtonPhase, at: UInt64)
  /// Log once that this `EV_KEY` code has no mapping (it is ignored from now on, quietly).
  case unmappedKey(UInt16)
  /// Send this touch-surface sample (x, y in −1…1 from where the touch began), stamped `at`.
  case touch(TouchRecognizer.Phase, x: Double, y: Double, at: UInt64)
  /// Send this pointer sample (the pointer model): a move or scroll by `dx`, `dy` canvas
  /// points, or a button going down or up (`buttons` held after it: bit 0 the primary).
  case pointer(PointerPhase, dx: Double, dy: Double, buttons: UInt32, at: UInt64)
}

/// Turns a device's kernel events into remote key events: a pure state machine whose only
/// clock is the events' timestamps.
///
/// - A key's value 1 is a press and 0 a release. Value 2 is the kernel's autorepeat: it
///   becomes a `held` tick (the broker derives its own repeats from the hold's timestamps),
///   never a second press; an autorepeat of a key this translator did not see go down is
///   dropped, so starting while a key is down cannot press it.
/// - An axis presses its negative or positive key when it leaves the dead zone and releases it
///   when it comes back (or crosses to the other side: release, then press).
/// - Two sources of one remote key (the hat and the D-pad buttons) press it once: the first
///   source down presses, the last one up releases.
/// - `SYN_DROPPED`, or the device going away (``releaseAll(at:)``), releases every key.
/// - ``tick(at:)`` sends `held` for every key down: the shell calls it every 50 ms while
///   ``isHolding``, as `tenfoot-remote hold` does, for devices without kernel autorepeat.
public struct DeviceTranslator: Sendable, Equatable {
  /// The mapping in use.
  public let mapping: DeviceMapping
  /// Axis ranges of the device (`A:` lines, or libevdev's absinfo).
  public let axes: [UInt16: AxisRange]
  private var sources: [Source: RemoteButton] = [:]
  private var downCounts: [RemoteButton: Int] = [:]
  /// Unmapped key codes already reported.
  private var reported: Set<UInt16> = []
  /// The order keys went down in, for stable output.
  private var order: [RemoteButton] = []

  private enum Source: Hashable, Sendable {
    case key(UInt16)
    case axis(UInt16)
  }

  /// The interval between `held` ticks while a key is down (as `hold` sends).
  public static let tickInterval = Duration.milliseconds(50)

  /// A translator for a device with these axis ranges.
  public init(mapping: DeviceMapping = .defaults, axes: [UInt16: AxisRange] = [:]) {
    self.mapping = mapping
    self.axes = axes
  }

  /// Whether any remote key is down.
  public var isHolding: Bool { !order.isEmpty }

  /// The remote keys down, in the order they went down.
  public var keysDown: [RemoteButton] { order }

  /// Handles one kernel event.
  public mutating func handle(_ event: InputEvent) -> [DeviceOutput] {
    switch event.type {
    case InputEventCode.evKey: return key(event)
    case InputEventCode.evAbs: return axis(event)
    case InputEventCode.evSyn where event.code == InputEventCode.synDropped:
      return releaseAll(at: event.time)
    default: return []
    }
  }

  /// `held` for every key down, stamped `time`.
  public func tick(at time: UInt64) -> [DeviceOutput] {
    order.map { .key($0, .held, at: time) }
  }

  /// Releases every key down (the device went away, or the kernel dropped events).
  public mutating func releaseAll(at time: UInt64) -> [DeviceOutput] {
    let outputs = order.reversed().map { DeviceOutput.key($0, .up, at: time) }
    sources = [:]
    downCounts = [:]
    order = []
    return outputs
  }

  private mutating func key(_ event: InputEvent) -> [DeviceOutput] {
    guard let mapped = mapping.keys[event.code] else {
      guard event.value == 1, reported.insert(event.code).inserted else { return [] }
      return [.unmappedKey(event.code)]
    }
    let source = Source.key(event.code)
    switch event.value {
    case 0: return release(source, at: event.time)
    case 1: return press(source, mapped, at: event.time)
    case 2: return sources[source] == nil ? [] : [.key(mapped, .held, at: event.time)]
    default: return []
    }
  }

  private mutating func axis(_ event: InputEvent) -> [DeviceOutput] {
    guard let mapped = mapping.axes[event.code] else { return [] }
    let range =
      axes[event.code]
      ?? (event.code == InputEventCode.absHat0X || event.code == InputEventCode.absHat0Y
        ? AxisRange(minimum: -1, maximum: 1) : nil)
    guard let range else { return [] }
    let position = range.position(event.value)
    let wanted: RemoteButton? =
      position <= -mapping.deadZone
      ? mapped.negative : position >= mapping.deadZone ? mapped.positive : nil
    let source = Source.axis(event.code)
    let current = sources[source]
    guard wanted != current else { return [] }
    var outputs = release(source, at: event.time)
    if let wanted { outputs += press(source, wanted, at: event.time) }
    return outputs
  }

  private mutating func press(_ source: Source, _ key: RemoteButton, at time: UInt64)
    -> [DeviceOutput]
  {
    guard sources[source] == nil else { return [] }
    sources[source] = key
    downCounts[key, default: 0] += 1
    guard downCounts[key] == 1 else { return [] }
    order.append(key)
    return [.key(key, .down, at: time)]
  }

  private mutating func release(_ source: Source, at time: UInt64) -> [DeviceOutput] {
    guard let key = sources.removeValue(forKey: source) else { return [] }
    let remaining = downCounts[key, default: 1] - 1
    downCounts[key] = remaining == 0 ? nil : remaining
    guard remaining == 0 else { return [] }
    order.removeAll { $0 == key }
    return [.key(key, .up, at: time)]
  }
}
