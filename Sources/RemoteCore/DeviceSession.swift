import InputDevices
import Logging
import TenFootProtocol

/// One input device driving the remote: kernel events in, key events to the broker out,
/// through a ``DeviceTranslator``. The replay and the live reader both feed it, so a recording
/// takes exactly the path a device does.
///
/// Times given to it are the remote's clock (`CLOCK_MONOTONIC` nanoseconds): a live device's
/// kernel timestamps as they are, a recording's shifted to start now.
public final class DeviceSession {
  private let client: RemoteClient
  private let logger: Logger
  private let device: String
  private let report: (PressResult) -> Void
  private var translator: DeviceTranslator
  /// When the last key event of a held key was sent: the next `held` tick is due 50 ms later.
  private var lastKeyAt: UInt64 = 0

  /// A session for `device` (a path or a recording's name) with its axis ranges.
  public init(
    client: RemoteClient, device: String, mapping: DeviceMapping, axes: [UInt16: AxisRange],
    logger: Logger, report: @escaping (PressResult) -> Void
  ) {
    self.client = client
    self.device = device
    self.logger = logger
    self.report = report
    translator = DeviceTranslator(mapping: mapping, axes: axes)
  }

  /// When the next `held` tick is due, if a key is down.
  public var nextTickAt: UInt64? {
    translator.isHolding ? lastKeyAt + DeviceTranslator.tickInterval : nil
  }

  /// Handles one kernel event whose time is already on the remote's clock.
  public func handle(_ event: InputEvent) throws(RemoteError) {
    try carryOut(translator.handle(event))
  }

  /// Sends the `held` ticks due up to `time`, each when it is due (waiting for it).
  public func tick(until time: UInt64) throws(RemoteError) {
    while let due = nextTickAt, due < time {
      RemoteClient.wait(until: due)
      try carryOut(translator.tick(at: due))
    }
  }

  /// Releases every key down at `time`: the device went away or the recording ended.
  public func releaseAll(at time: UInt64) throws(RemoteError) {
    try carryOut(translator.releaseAll(at: time))
  }

  private func carryOut(_ outputs: [DeviceOutput]) throws(RemoteError) {
    for output in outputs {
      switch output {
      case .unmappedKey(let code):
        logger.notice(
          "ignoring a key with no mapping",
          metadata: [
            "device.path": "\(device)", "device.code": "\(InputEventCode.keyName(code))",
          ])
      case .key(let key, let phase, let at):
        try send(key, phase, at: at)
      }
    }
  }

  private func send(_ key: DeviceKey, _ phase: DevicePhase, at time: UInt64) throws(RemoteError) {
    let wirePhase: Tenfoot_V1_KeyPhase =
      switch phase {
      case .down: .down
      case .held: .held
      case .up: .up
      }
    let ack = try client.sendKey(Self.wireKey(key), wirePhase, at: time)
    lastKeyAt = time
    guard phase != .held || !ack.effects.isEmpty else { return }
    report(
      PressResult(
        name: "\(key.rawValue) \(phase.rawValue)", effects: ack.effects,
        focused: ack.hasFocused ? ack.focused : nil))
  }

  /// The remote key on the wire.
  static func wireKey(_ key: DeviceKey) -> Tenfoot_V1_Key {
    switch key {
    case .up: .up
    case .down: .down
    case .left: .left
    case .right: .right
    case .select: .select
    case .menu: .menu
    case .home: .home
    case .playPause: .playPause
    case .pageUp: .pageUp
    case .pageDown: .pageDown
    case .tab: .tab
    case .shiftTab: .shiftTab
    case .volumeUp: .volumeUp
    case .volumeDown: .volumeDown
    case .mute: .mute
    case .power: .power
    case .info: .info
    }
  }
}
