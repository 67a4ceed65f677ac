import FocusEngine
import TenFootProtocol

/// The broker's sessions and the rules that turn one control request into one reply and the
/// state messages to publish. No sockets here: `Broker` does the I/O.
struct BrokerState {
  /// Changes on every broker start so screens know to resync.
  let epoch: UInt64
  /// The broker's name and version, sent in Welcome.
  let name: String
  /// Sessions by screen id.
  private(set) var sessions: [String: ScreenSession] = [:]
  /// Layout limit: more items than this are refused.
  let maxItems: Int

  /// A message to publish on the state socket.
  struct Publication {
    /// The topic frame.
    var topic: String
    /// The envelope body.
    var body: Tenfoot_V1_Envelope.OneOf_Body
  }

  /// What handling one request produced.
  struct Outcome {
    /// The reply body for the requester.
    var reply: Tenfoot_V1_Envelope.OneOf_Body
    /// State messages for the PUB socket, in order.
    var publications: [Publication] = []
  }

  init(epoch: UInt64, name: String, maxItems: Int = 100_000) {
    self.epoch = epoch
    self.name = name
    self.maxItems = maxItems
  }

  /// Handles one decoded request from a control peer.
  mutating func handle(_ envelope: Tenfoot_V1_Envelope) -> Outcome {
    guard envelope.protocolVersion == WireProtocol.version else {
      return Outcome(
        reply: .error(
          .init(
            .unsupportedVersion,
            "protocol_version \(envelope.protocolVersion) is not supported; this broker speaks \(WireProtocol.version)"
          )))
    }
    switch envelope.body {
    case .hello:
      var welcome = Tenfoot_V1_Welcome()
      welcome.protocolVersion = WireProtocol.version
      welcome.epoch = epoch
      welcome.broker = name
      welcome.screens = sessions.keys.sorted()
      return Outcome(reply: .welcome(welcome))
    case .registerScreen(let request):
      return register(request)
    case .input(let input):
      return apply(input, cause: envelope)
    case .snapshotRequest(let request):
      guard let session = sessions[request.screenID] else {
        return Outcome(reply: .error(unknownScreen(request.screenID)))
      }
      return Outcome(reply: .snapshot(session.snapshot(epoch: epoch)))
    case .welcome, .snapshot, .delta, .ack, .error, .heartbeat, .pairChallenge, .paired,
      .pairingPrompt:
      return Outcome(
        reply: .error(
          .init(.unexpectedMessage, "\(envelope.bodyName) is not a request the broker accepts")))
    case .pairRequest, .pairProof:
      return Outcome(
        reply: .error(
          .init(.unexpectedMessage, "pairing happens on the broker's pairing endpoint")))
    case nil:
      return Outcome(reply: .error(.init(.malformed, "envelope has no body")))
    }
  }

  private mutating func register(_ request: Tenfoot_V1_RegisterScreen) -> Outcome {
    if let problem = ScreenID.problem(with: request.screenID) {
      return Outcome(reply: .error(.init(.invalidLayout, problem)))
    }
    guard request.hasLayout else {
      return Outcome(reply: .error(.init(.invalidLayout, "layout: required field is missing")))
    }
    guard request.layout.items.count <= maxItems else {
      return Outcome(
        reply: .error(
          .init(
            .invalidLayout,
            "items: \(request.layout.items.count) items is more than the limit of \(maxItems)")))
    }
    let layout = Layout(wire: request.layout)
    do {
      try layout.validate()
    } catch {
      return Outcome(reply: .error(.init(.invalidLayout, error.description)))
    }
    let id = request.screenID
    var session: ScreenSession
    if var existing = sessions[id] {
      _ = reduce(&existing.focus, .replaceLayout(layout))
      existing.seq += 1
      session = existing
    } else {
      do {
        session = ScreenSession(id: id, focus: try FocusState(layout: layout), seq: 1)
      } catch {
        return Outcome(reply: .error(.init(.invalidLayout, error.description)))
      }
    }
    sessions[id] = session
    var ack = Tenfoot_V1_Ack()
    ack.screenID = id
    ack.stateSeq = session.seq
    if let focused = session.focus.focused { ack.focused = focused }
    // A new or replaced layout is published whole: deltas never carry layouts.
    return Outcome(
      reply: .ack(ack),
      publications: [
        Publication(
          topic: WireProtocol.stateTopic(screen: id),
          body: .snapshot(session.snapshot(epoch: epoch)))
      ])
  }

  private mutating func apply(_ input: Tenfoot_V1_Input, cause: Tenfoot_V1_Envelope) -> Outcome {
    let id: String
    if input.screenID.isEmpty {
      guard sessions.count == 1, let only = sessions.keys.first else {
        let known = sessions.keys.sorted().joined(separator: ", ")
        return Outcome(
          reply: .error(
            .init(
              .ambiguousScreen,
              sessions.isEmpty
                ? "no screen is registered yet"
                : "several screens are registered (\(known)); name one")))
      }
      id = only
    } else {
      id = input.screenID
    }
    guard var session = sessions[id] else {
      return Outcome(reply: .error(unknownScreen(id)))
    }
    let event: FocusEvent?
    switch input.event {
    case .key(let key):
      switch KeyMapping.event(for: key) {
      case .success(let mapped): event = mapped
      case .failure(let problem):
        return Outcome(reply: .error(.init(.invalidInput, problem.description)))
      }
    case nil:
      return Outcome(reply: .error(.init(.invalidInput, "input has no event")))
    }

    var ack = Tenfoot_V1_Ack()
    ack.screenID = id
    guard let event else {
      // A key this screen gives no meaning to yet (e.g. volume): acknowledged, nothing changes.
      ack.stateSeq = session.seq
      if let focused = session.focus.focused { ack.focused = focused }
      return Outcome(reply: .ack(ack))
    }

    let before = session.focus
    let effects = reduce(&session.focus, event)
    var publications: [Publication] = []
    if !effects.isEmpty {
      session.seq += 1
      var delta = Tenfoot_V1_StateDelta()
      delta.screenID = id
      delta.epoch = epoch
      delta.seq = session.seq
      if let focused = session.focus.focused { delta.focused = focused }
      delta.changed = Self.changedStates(before: before, after: session.focus, effects: effects)
      delta.effects = effects.map(Tenfoot_V1_FocusEffect.init)
      delta.cause.sender = cause.sender
      delta.cause.seq = cause.seq
      ack.effects = delta.effects
      publications.append(
        Publication(topic: WireProtocol.stateTopic(screen: id), body: .delta(delta)))
      sessions[id] = session
    }
    ack.stateSeq = session.seq
    if let focused = session.focus.focused { ack.focused = focused }
    return Outcome(reply: .ack(ack), publications: publications)
  }

  /// The display states that differ between `before` and `after`. Only the items an event can
  /// touch are compared (the old and new focus and the items named by effects), so the cost
  /// does not grow with the layout.
  static func changedStates(before: FocusState, after: FocusState, effects: [FocusEffect])
    -> [Tenfoot_V1_ItemState]
  {
    var touched: [String] = []
    func touch(_ id: String?) {
      if let id, !touched.contains(id) { touched.append(id) }
    }
    touch(before.focused)
    touch(after.focused)
    for effect in effects {
      switch effect {
      case .focusChanged(let context):
        touch(context.previous)
        touch(context.next)
      case .highlighted(let id), .activated(let id), .selectionChanged(let id, _): touch(id)
      case .movementFailed: break
      }
    }
    return touched.compactMap { id in
      guard let new = after.displayState(of: id), new != before.displayState(of: id) else {
        return nil
      }
      var state = Tenfoot_V1_ItemState()
      state.id = id
      state.state = Tenfoot_V1_FocusDisplayState(new)
      return state
    }
  }

  private func unknownScreen(_ id: String) -> Tenfoot_V1_Error {
    let known = sessions.keys.sorted()
    let list = known.isEmpty ? "none are registered" : "known: \(known.joined(separator: ", "))"
    return .init(.unknownScreen, "no screen session \"\(id)\" (\(list))")
  }
}

extension Tenfoot_V1_Error {
  /// An error with a code and a message for people.
  init(_ code: Tenfoot_V1_ErrorCode, _ message: String) {
    self.init()
    self.code = code
    self.message = message
  }
}
