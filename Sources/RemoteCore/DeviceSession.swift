import FocusEngine
import InputDevices
import Logging
import TenFootProtocol

/// One input device driving the remote: kernel events in, key events to the broker out,
/// through a ``DeviceTranslator``. The replay and the live reader both feed it, so a recording
/// takes exactly the path a device does.
///
/// Times given to it are the remote's clock (`CLOCK_MONOTONIC`): a live device's kernel
/// timestamps as they are, a recording's shifted to start now.
public final class DeviceSession {
  private let client: RemoteClient
  private let logger: Logger
  private let device: String
  private let report: (PressResult) -> Void
  private var translator: DeviceTranslator
  /// A mouse's or touchpad's translator (the device's kind is `.pointer`): every event goes
  /// there instead of the key translator.
  private var pointer: PointerTranslator?
  /// When the last key event of a held key was sent: the next `held` tick is due 50 ms later.
  private var lastKeyAt = MonotonicInstant(nanoseconds: 0)

  /// A session for `device` (a path or a recording's name) described by `description` (its
  /// axis ranges; a mouse's or touchpad's events go to the pointer model or the touch surface,
  /// as `mapping.pointer` says).
  public init(
    client: RemoteClient, device: String, mapping: DeviceMapping, description: DeviceDescription,
    logger: Logger, report: @escaping (PressResult) -> Void
  ) {
    self.client = client
    self.device = device
    self.logger = logger
    self.report = report
    translator = DeviceTranslator(mapping: mapping, axes: description.axes)
    pointer =
      description.kind == .pointer
      ? PointerTranslator(axes: description.axes, settings: mapping.pointer) : nil
  }

  /// When the next `held` tick (or a resting mouse's end of touch) is due, if any.
  public var nextTickAt: MonotonicInstant? {
    let held = translator.isHolding ? lastKeyAt + DeviceTranslator.tickInterval : nil
    let rested = pointer?.nextDeadline.map(MonotonicInstant.init(nanoseconds:))
    return [held, rested].compactMap { $0 }.min()
  }

  /// Handles one kernel event whose time is already on the remote's clock.
  public func handle(_ event: InputEvent) throws(RemoteError) {
    if let outputs = pointer?.handle(event) {
      try carryOut(outputs)
    } else {
      try carryOut(translator.handle(event))
    }
  }

  /// Sends the `held` ticks (and ends of touch) due before `time`, each when it is due
  /// (waiting for it).
  public func tick(until time: MonotonicInstant) throws(RemoteError) {
    while let due = nextTickAt, due < time {
      RemoteClient.wait(until: due)
      if translator.isHolding, lastKeyAt + DeviceTranslator.tickInterval <= due {
        try carryOut(translator.tick(at: due.nanoseconds))
      }
      if let end = pointer?.nextDeadline, end <= due.nanoseconds {
        try carryOut(pointer?.tick(at: due.nanoseconds) ?? [])
      }
    }
  }

  /// Releases every key down (and ends a touch) at `time`: the device went away or the
  /// recording ended.
  public func releaseAll(at time: MonotonicInstant) throws(RemoteError) {
    try carryOut(translator.releaseAll(at: time.nanoseconds))
    try carryOut(pointer?.releaseAll(at: time.nanoseconds) ?? [])
  }

  /// Sends what a translator asked for (the CEC runner's path into the same sending); the
  /// translators' times are kernel nanoseconds on the remote's clock.
  public func carryOut(_ outputs: [DeviceOutput]) throws(RemoteError) {
    for output in outputs {
      switch output {
      case .unmappedKey(let code):
        logger.notice(
          "ignoring a key with no mapping",
          metadata: [
            "device.path": "\(device)", "device.code": "\(InputEventCode.keyName(code))",
          ])
      case .key(let key, let phase, let at):
        try send(key, phase, at: MonotonicInstant(nanoseconds: at))
      case .touch(let phase, let x, let y, let at):
        let ack = try client.sendTouch(phase, x: x, y: y, at: MonotonicInstant(nanoseconds: at))
        guard !ack.effects.isEmpty else { continue }
        report(PressResult(name: "touch \(phase.rawValue)", acks: [ack]))
      case .pointer(let phase, let dx, let dy, let buttons, let at):
        let ack = try client.sendPointer(
          phase, dx: dx, dy: dy, buttons: buttons, at: MonotonicInstant(nanoseconds: at))
        guard !ack.effects.isEmpty else { continue }
        report(PressResult(name: "point \(phase.rawValue)", acks: [ack]))
      }
    }
  }

  private func send(_ key: RemoteButton, _ phase: ButtonPhase, at time: MonotonicInstant)
    throws(RemoteError)
  {
    let ack = try client.sendKey(key, phase, at: time)
    lastKeyAt = time
    guard phase != .held || !ack.effects.isEmpty else { return }
    report(PressResult(name: "\(key.name) \(phase.rawValue)", acks: [ack]))
  }
}

extension InputEvent {
  /// The event's kernel time as an instant on the remote's clock (a recording's events once
  /// shifted onto it).
  var instant: MonotonicInstant { MonotonicInstant(nanoseconds: time) }
}
