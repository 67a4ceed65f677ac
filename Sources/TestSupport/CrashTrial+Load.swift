import Foundation
import TenFootProtocol
import ZeroMQ

/// The load of a crash trial: remotes focusing and toggling items, one request in flight each.
extension CrashTrialRun {
  /// A request a remote sends next.
  enum Step {
    case focus(screen: String, item: String)
    case select(screen: String, phase: Tenfoot_V1_KeyPhase)

    var screen: String {
      switch self {
      case .focus(let screen, _), .select(let screen, _): screen
      }
    }
  }

  /// One remote: its socket, its screens, its plan and its request in flight.
  struct Remote {
    let socket: Socket
    let screens: [String]
    var steps: [Step] = []
    var inFlight: (seq: UInt64, screen: String, predicted: ScreenState)?
  }

  /// Runs the load for `milliseconds`, then returns with requests in flight (the caller kills
  /// the broker at once). `pending` holds what each in-flight request would make its screen.
  mutating func load(context: Context, control: String, milliseconds: Int) throws {
    var remotes: [Remote] = []
    var poller = Poller()
    for index in 0..<configuration.remotes {
      // A new connection per round: a DEALER would otherwise deliver the messages it queued
      // for the dead broker to the new one.
      let socket = try Socket(context, .dealer)
      try socket.connect(control)
      poller.add(socket)
      let owned = screens.indices.filter { $0 % configuration.remotes == index }.map {
        screens[$0]
      }
      remotes.append(Remote(socket: socket, screens: owned))
    }
    for index in remotes.indices { try send(&remotes[index]) }
    let killAt = MonotonicClock.nanoseconds() + UInt64(milliseconds) * 1_000_000
    while true {
      let now = MonotonicClock.nanoseconds()
      guard now < killAt else { break }
      try poller.poll(timeout: .nanoseconds(Int64(killAt - now)))
      for index in remotes.indices where poller.isReadable(index) {
        while let frame = try remotes[index].socket.receive(dontWait: true) {
          try acknowledge(frame, remote: &remotes[index])
          if MonotonicClock.nanoseconds() < killAt { try send(&remotes[index]) }
        }
      }
    }
  }

  /// Sends a remote's next request, planning three more when its plan is empty: focus a
  /// random item of a random own screen, press select, release select (which toggles it).
  private mutating func send(_ remote: inout Remote) throws {
    if remote.steps.isEmpty, let screen = remote.screens.randomElement() {
      let item = "t\(Int.random(in: 0..<configuration.items))"
      remote.steps = [
        .focus(screen: screen, item: item), .select(screen: screen, phase: .down),
        .select(screen: screen, phase: .up),
      ]
    }
    guard !remote.steps.isEmpty else { return }
    let step = remote.steps.removeFirst()
    let before = acknowledged[step.screen] ?? ScreenState(focused: nil, selected: [])
    var predicted = before
    let body: Tenfoot_V1_Envelope.OneOf_Body
    switch step {
    case .focus(let screen, let item):
      predicted.focused = item
      var request = Tenfoot_V1_FocusRequest()
      request.screenID = screen
      request.item = item
      body = .focusRequest(request)
    case .select(let screen, let phase):
      if phase == .up, let focused = before.focused, focused != "home" {
        predicted.selected.formSymmetricDifference([focused])
      }
      var input = Tenfoot_V1_Input()
      input.screenID = screen
      input.key.key = .select
      input.key.phase = phase
      input.key.timestampNs = MonotonicClock.nanoseconds()
      body = .input(input)
    }
    seq += 1
    try remote.socket.send(
      Tenfoot_V1_Envelope(
        sender: "crash:remote", seq: seq, sentAtNanoseconds: MonotonicClock.nanoseconds(),
        body: body
      ).encoded())
    remote.inFlight = (seq, step.screen, predicted)
    pending[step.screen] = predicted
  }

  /// Takes a reply: the in-flight request's change is now acknowledged.
  private mutating func acknowledge(_ frame: [UInt8], remote: inout Remote) throws {
    let reply = try Tenfoot_V1_Envelope.decode(frame)
    guard let inFlight = remote.inFlight, reply.replyTo == inFlight.seq else {
      throw CrashTrialError("a reply to \(reply.replyTo) that was not in flight")
    }
    guard case .ack(let ack) = reply.body else {
      throw CrashTrialError("request on \(inFlight.screen) refused: \(reply.bodyName)")
    }
    if ack.focused != inFlight.predicted.focused {
      outcome.failures.append(
        "screen \(inFlight.screen): acknowledged focus \(ack.focused), expected "
          + "\(inFlight.predicted.focused ?? "none")")
    }
    acknowledged[inFlight.screen] = inFlight.predicted
    pending[inFlight.screen] = nil
    remote.inFlight = nil
    outcome.acknowledged += 1
  }
}
