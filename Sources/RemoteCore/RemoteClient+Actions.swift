import FocusEngine
import Foundation
import TenFootProtocol

extension RemoteClient {
  /// Performs one action over the one connection, in real time (a two-second hold takes two
  /// seconds), stamping every event with the remote's monotonic clock; returns everything
  /// the broker did.
  ///
  /// Each event is stamped with when the action does it, never with when it could be sent: a
  /// tap (`press`, `click`, each tap of `double`) is released at the instant it was pressed,
  /// although its up goes only once its down is acknowledged. The broker derives repeats, long
  /// presses and double taps from these stamps alone, so an up stamped on sending would turn a
  /// down acknowledged late (a zone's press waiting 0.5 s for its screen after a takeover, a
  /// loaded broker) into a held key: one `right` moving focus three or six steps.
  public func perform(_ action: RemoteAction) throws(RemoteError) -> PressResult {
    var acks: [InputAck] = []
    var tilt: PressResult.Tilt?
    let start = MonotonicClock.now
    switch action {
    case .press(let key):
      acks += try tap(key, at: start)
    case .click:
      acks += try tap(.select, at: start)
    case .double(let key):
      acks += try tap(key, at: start)
      // Sent no earlier than stamped: the broker's clock for this remote never runs ahead.
      let second = start + Self.doubleTapGap
      Self.wait(until: second)
      acks += try tap(key, at: second)
    case .hold(let key, let length):
      // Held ticks every 50 ms carry the timestamps the broker derives repeats from.
      let end = start + length
      acks.append(try sendKey(key, .down, at: start))
      var tick = start + Self.holdTick
      while tick < end {
        Self.wait(until: tick)
        acks.append(try sendKey(key, .held, at: tick))
        tick += Self.holdTick
      }
      Self.wait(until: end)
      acks.append(try sendKey(key, .up, at: end))
    case .swipe(let direction, let velocity, let distance, let drift):
      let samples = GestureSynthesizer.swipe(
        direction, velocity: velocity, distance: distance, drift: drift)
      acks += try sendTouches(samples, from: start)
    case .drag(let x, let y, let duration, let rest):
      let samples = GestureSynthesizer.drag(toX: x, y: y, duration: duration, rest: rest)
      // The tilt while the finger rests (lift-off settles it): no focus effect shows it.
      acks += try sendTouches(samples.dropLast(), from: start)
      tilt = try self.tilt(screen: acks.last?.screen ?? screen)
      acks += try sendTouches(samples.suffix(1), from: start)
    case .point(let motion):
      acks += try sendPointer(motion, from: start)
    case .type(let text):
      acks.append(try send(.text(.append(text)), what: "type"))
    }
    return PressResult(name: action.name, acks: acks, tilt: tilt)
  }

  /// The focused item's tilt on `screen` now, from a snapshot (nil: nothing is focused).
  private func tilt(screen: String?) throws(RemoteError) -> PressResult.Tilt? {
    var request = Tenfoot_V1_SnapshotRequest()
    request.screenID = screen ?? ""
    let reply: Tenfoot_V1_Envelope.OneOf_Body
    do {
      reply = try connection.request(.snapshotRequest(request), timeout: timeout)
    } catch {
      throw .requestFailed(what: "snapshot", cause: error)
    }
    switch reply {
    case .snapshot(let state) where state.hasParallax && !state.parallax.item.isEmpty:
      return PressResult.Tilt(
        item: state.parallax.item, rotateX: state.parallax.rotateX,
        rotateY: state.parallax.rotateY)
    case .snapshot: return nil
    case .error(let error): throw .refused(what: "snapshot", refusal: BrokerRefusal(wire: error))
    default: throw .unexpectedReply(what: "snapshot")
    }
  }

  /// Sends one touch sample stamped now (the interactive touch mode).
  public func touch(_ phase: TouchRecognizer.Phase, x: Double, y: Double) throws(RemoteError)
    -> PressResult
  {
    let ack = try sendTouch(phase, x: x, y: y, at: MonotonicClock.now)
    return PressResult(name: "touch", acks: [ack])
  }

  /// Sends one touch sample stamped `time` (a device's kernel time); returns the broker's ack.
  public func sendTouch(
    _ phase: TouchRecognizer.Phase, x: Double, y: Double, at time: MonotonicInstant
  ) throws(RemoteError) -> InputAck {
    try send(.touch(phase, x: x, y: y, at: time.nanoseconds), what: "touch")
  }

  /// Sends one relative pointer sample stamped `time` (the remote's clock): a mouse's or
  /// touchpad's move, button or scroll.
  public func sendPointer(
    _ phase: PointerPhase, dx: Double, dy: Double, buttons: UInt32, at time: MonotonicInstant
  ) throws(RemoteError) -> InputAck {
    try send(
      PointerEvent(phase, x: dx, y: dy, relative: true, buttons: buttons, at: time.nanoseconds))
  }

  /// Sends one pointer sample stamped now (the interactive pointer mode).
  public func pointer(_ phase: PointerPhase, x: Double, y: Double, buttons: UInt32 = 0)
    throws(RemoteError) -> PressResult
  {
    let event = PointerEvent(
      phase, x: x, y: y, relative: false, buttons: buttons, at: MonotonicClock.now.nanoseconds)
    return PressResult(name: "point", acks: [try send(event)])
  }

  /// Sends one pointer sample.
  private func send(_ event: PointerEvent) throws(RemoteError) -> InputAck {
    try send(.pointer(event), what: "point")
  }

  /// The samples of a pointer motion, in real time: a flick is ``PointerMotion/flickSamples``
  /// relative moves spread so the pointer travels at the velocity asked, then a lift-off.
  private func sendPointer(_ motion: PointerMotion, from start: MonotonicInstant)
    throws(RemoteError) -> [InputAck]
  {
    func event(
      _ phase: PointerPhase, _ x: Double, _ y: Double, relative: Bool, buttons: UInt32 = 0,
      at time: MonotonicInstant
    ) -> PointerEvent {
      PointerEvent(phase, x: x, y: y, relative: relative, buttons: buttons, at: time.nanoseconds)
    }
    switch motion {
    case .to(let x, let y):
      return [try send(event(.moved, x, y, relative: false, at: start))]
    case .by(let dx, let dy):
      return [try send(event(.moved, dx, dy, relative: true, at: start))]
    case .click:
      let down = try send(event(.down, 0, 0, relative: true, buttons: 1, at: start))
      let up = try send(event(.up, 0, 0, relative: true, at: MonotonicClock.now))
      return [down, up]
    case .flick(let dx, let dy, let velocity):
      let steps = PointerMotion.flickSamples
      let distance = (dx * dx + dy * dy).squareRoot()
      let interval = max(Duration.seconds(distance / velocity / Double(steps)), .nanoseconds(1))
      var acks: [InputAck] = []
      var time = start
      for _ in 0..<steps {
        time += interval
        Self.wait(until: time)
        acks.append(
          try send(event(.moved, dx / Double(steps), dy / Double(steps), relative: true, at: time))
        )
      }
      acks.append(try send(event(.up, 0, 0, relative: true, at: time)))
      return acks
    }
  }

  /// The interval between held ticks.
  static let holdTick = Duration.milliseconds(50)
  /// The interval between the two taps of a double tap (within the broker's 300 ms double-tap
  /// window).
  static let doubleTapGap = Duration.milliseconds(120)

  /// A tap of `key` at `time`: its down, then (once that is acknowledged) its up, both
  /// stamped `time` (see `perform`).
  private func tap(_ key: RemoteButton, at time: MonotonicInstant) throws(RemoteError)
    -> [InputAck]
  {
    [try sendKey(key, .down, at: time), try sendKey(key, .up, at: time)]
  }

  private func sendTouches(
    _ samples: some Collection<GestureSynthesizer.Sample>, from start: MonotonicInstant
  )
    throws(RemoteError) -> [InputAck]
  {
    var acks: [InputAck] = []
    acks.reserveCapacity(samples.count)
    for sample in samples {
      let time = start + sample.at
      Self.wait(until: time)
      acks.append(try sendTouch(sample.phase, x: sample.x, y: sample.y, at: time))
    }
    return acks
  }

  /// Sleeps until the monotonic clock reaches `deadline`.
  static func wait(until deadline: MonotonicInstant) {
    let remaining = deadline - MonotonicClock.now
    guard remaining > .zero else { return }
    Thread.sleep(forTimeInterval: remaining / .seconds(1))
  }
}
