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
  /// The broker's monotonic clock at the request being handled, nanoseconds (set by the
  /// loop: time comes in as data).
  var now: UInt64 = 0
  /// Screen id → when a screen last showed it was alive (registered, asked for a snapshot or
  /// sent a heartbeat), nanoseconds.
  private(set) var lastSeen: [String: UInt64] = [:]
  /// Sessions dropped for want of a screen, so input for them gets SCREEN_GONE (bounded).
  private(set) var gone: [String] = []

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

  /// Handles one decoded request from a control peer (`peer`: its ROUTER identity, which tells
  /// apart two remotes that give the same `sender` name).
  mutating func handle(_ envelope: Tenfoot_V1_Envelope, peer: [UInt8] = []) -> Outcome {
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
      let outcome = register(request)
      if case .ack = outcome.reply { seen(request.screenID) }
      return outcome
    case .input(let input):
      return apply(input, cause: envelope, peer: peer)
    case .patchLayout(let request):
      return patch(request, cause: envelope)
    case .focusRequest(let request):
      return requestFocus(request, cause: envelope)
    case .debugRequest(let request):
      return debug(request)
    case .snapshotRequest(let request):
      guard let session = sessions[request.screenID] else {
        return Outcome(reply: .error(unknownScreen(request.screenID)))
      }
      seen(request.screenID)
      return Outcome(reply: .snapshot(session.snapshot(epoch: epoch)))
    case .heartbeat(let heartbeat) where !heartbeat.screenID.isEmpty:
      guard let session = sessions[heartbeat.screenID] else {
        return Outcome(reply: .error(unknownScreen(heartbeat.screenID)))
      }
      seen(heartbeat.screenID)
      var ack = Tenfoot_V1_Ack()
      ack.screenID = heartbeat.screenID
      ack.stateSeq = session.seq
      return Outcome(reply: .ack(ack))
    case .welcome, .snapshot, .delta, .ack, .error, .heartbeat, .debugReport, .pairChallenge,
      .paired, .pairingPrompt:
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

  private mutating func apply(
    _ input: Tenfoot_V1_Input, cause: Tenfoot_V1_Envelope, peer: [UInt8]
  ) -> Outcome {
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
    let mapped: Result<RemoteInput, KeyMappingError>
    switch input.event {
    case .key(let key): mapped = KeyMapping.input(for: key)
    case .touch(let touch): mapped = KeyMapping.input(for: touch)
    case .text(let text): mapped = KeyMapping.input(for: text)
    case nil:
      return Outcome(reply: .error(.init(.invalidInput, "input has no event")))
    }
    let remoteInput: RemoteInput
    switch mapped {
    case .success(let value): remoteInput = value
    case .failure(let problem):
      return Outcome(reply: .error(.init(.invalidInput, problem.description)))
    }
    var ack = Tenfoot_V1_Ack()
    ack.screenID = id
    return step(
      &session,
      .remote(remoteInput, from: ScreenSession.remoteKey(peer: peer, sender: cause.sender)),
      cause: cause, ack: ack)
  }

  /// What a session step runs: an engine event, or a remote's timed input.
  enum Step {
    case event(FocusEvent)
    /// A remote's input, with the key of the remote it came from (see `ScreenSession`).
    case remote(RemoteInput, from: String)
  }

  /// Runs one engine event on a session and publishes a delta if anything happened (or the
  /// focused item's tilt changed).
  private mutating func step(
    _ session: inout ScreenSession, _ step: Step, cause: Tenfoot_V1_Envelope,
    ack: Tenfoot_V1_Ack
  ) -> Outcome {
    var ack = ack
    let before = session.focus
    let parallaxBefore = session.parallax
    let effects: [FocusEffect]
    switch step {
    case .event(let event):
      effects = reduce(
        &session.focus, event, cause: FocusCause(sender: cause.sender, sequence: cause.seq))
    case .remote(let input, let remote):
      effects = session.handle(input, from: remote)
    }
    for effect in effects {
      if case .textRejected(let reason) = effect {
        sessions[session.id] = session
        return Outcome(reply: .error(.init(.noTextField, reason)))
      }
    }
    let parallax = session.parallax
    var publications: [Publication] = []
    if !effects.isEmpty || parallax != parallaxBefore {
      session.seq += 1
      var delta = Tenfoot_V1_StateDelta()
      delta.screenID = session.id
      delta.epoch = epoch
      delta.seq = session.seq
      if let focused = session.focus.focused { delta.focused = focused }
      delta.changed = Self.changedStates(before: before, after: session.focus, effects: effects)
      delta.effects = effects.map(Tenfoot_V1_FocusEffect.init)
      for effect in effects {
        if case .scrolled(let group, let offset) = effect {
          delta.scroll.append(Tenfoot_V1_ScrollOffset(group: group, offset: offset))
        }
      }
      delta.cause.sender = cause.sender
      delta.cause.seq = cause.seq
      if let parallax { delta.parallax = parallax }
      for effect in effects {
        if case .textChanged(let id, let value) = effect { delta.text[id] = value }
      }
      delta.editingText = session.focus.isEditingText
      ack.effects = delta.effects
      publications.append(
        Publication(topic: WireProtocol.stateTopic(screen: session.id), body: .delta(delta)))
      sessions[session.id] = session
    }
    sessions[session.id] = session  // The remote's timing state changes even without effects.
    ack.stateSeq = session.seq
    ack.editingText = session.focus.isEditingText
    if let focused = session.focus.focused { ack.focused = focused }
    return Outcome(reply: .ack(ack), publications: publications)
  }

  /// A layout patch: applied whole or not at all; the new state is published as a snapshot.
  private mutating func patch(_ request: Tenfoot_V1_PatchLayout, cause: Tenfoot_V1_Envelope)
    -> Outcome
  {
    guard var session = sessions[request.screenID] else {
      return Outcome(reply: .error(unknownScreen(request.screenID)))
    }
    var patch: LayoutPatch
    do {
      patch = try LayoutPatch(wire: request.operations)
    } catch {
      return Outcome(reply: .error(.init(.invalidLayout, error.description)))
    }
    switch request.focus {
    case .focusItem(let id): patch.focus = .item(id)
    case .focusGroup(let id): patch.focus = .group(id)
    case nil: break
    }
    let effects = reduce(
      &session.focus, .applyPatch(patch),
      cause: FocusCause(sender: cause.sender, sequence: cause.seq))
    for effect in effects {
      if case .layoutRejected(let error) = effect {
        return Outcome(reply: .error(.init(.invalidLayout, error.description)))
      }
    }
    guard session.focus.layout.items.count <= maxItems else {
      return Outcome(
        reply: .error(
          .init(
            .invalidLayout,
            "items: \(session.focus.layout.items.count) items is more than the limit of \(maxItems)"
          )))
    }
    session.seq += 1
    sessions[session.id] = session
    var ack = Tenfoot_V1_Ack()
    ack.screenID = session.id
    ack.stateSeq = session.seq
    ack.effects = effects.map(Tenfoot_V1_FocusEffect.init)
    if let focused = session.focus.focused { ack.focused = focused }
    return Outcome(
      reply: .ack(ack),
      publications: [
        Publication(
          topic: WireProtocol.stateTopic(screen: session.id),
          body: .snapshot(session.snapshot(epoch: epoch)))
      ])
  }

  /// Programmatic focus: the resulting focus, or a typed refusal.
  private mutating func requestFocus(
    _ request: Tenfoot_V1_FocusRequest, cause: Tenfoot_V1_Envelope
  ) -> Outcome {
    guard var session = sessions[request.screenID] else {
      return Outcome(reply: .error(unknownScreen(request.screenID)))
    }
    let target: FocusTarget
    switch request.target {
    case .item(let id): target = .item(id)
    case .group(let id): target = .group(id)
    case .any(let id): target = .any(id)
    case nil: return Outcome(reply: .error(.init(.invalidInput, "focus request has no target")))
    }
    if case .failure(let denial) = session.focus.checkFocusRequest(target) {
      return Outcome(reply: .error(.init(Tenfoot_V1_ErrorCode(denial.reason), denial.message)))
    }
    var ack = Tenfoot_V1_Ack()
    ack.screenID = session.id
    return step(&session, .event(.requestFocus(target)), cause: cause, ack: ack)
  }

  /// The focus debugger on a live session.
  private func debug(_ request: Tenfoot_V1_DebugRequest) -> Outcome {
    guard let session = sessions[request.screenID] else {
      return Outcome(reply: .error(unknownScreen(request.screenID)))
    }
    let lines: [String]
    switch request.query {
    case .explainItem(let id): lines = session.focus.explain(id).lines
    case .tabLoop:
      lines = session.focus.tabLoop().enumerated().map { position, stop in
        "\(position + 1). \(stop.group ?? "(top level)") → \(stop.entry ?? "nothing focusable")"
      }
    case .groupTree: lines = session.focus.groupTree()
    case .dryRun(let name):
      guard let input = FocusInput(name) else {
        return Outcome(reply: .error(.init(.invalidInput, "unknown input \"\(name)\"")))
      }
      let (after, effects) = session.focus.dryRun(input.events)
      lines =
        [
          "focused: \(after.focused ?? "null")",
          "moved: \(after.focused != session.focus.focused)",
        ] + effects.map { Tenfoot_V1_FocusEffect($0).summary }
    case nil:
      return Outcome(reply: .error(.init(.invalidInput, "debug request has no query")))
    }
    var report = Tenfoot_V1_DebugReport()
    report.screenID = session.id
    report.text = lines.joined(separator: "\n")
    return Outcome(reply: .debugReport(report))
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
      case .movementFailed, .scrolled, .focusRequestDenied, .layoutRejected, .textChanged,
        .textRejected, .back, .home, .playPause, .contextMenu, .doubleTap:
        break
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

  private mutating func seen(_ screen: String) {
    lastSeen[screen] = now
    gone.removeAll { $0 == screen }
  }

  /// Drops the sessions no screen has kept alive for `grace` nanoseconds; returns their ids.
  /// A session whose screen vanished keeps its state for the grace period, so a screen that
  /// restarts or reconnects in time finds everything as it was.
  mutating func expireScreens(grace: UInt64) -> [String] {
    var dropped: [String] = []
    for id in sessions.keys.sorted() {
      let seenAt = lastSeen[id] ?? now
      guard now > seenAt, now - seenAt > grace else { continue }
      sessions[id] = nil
      lastSeen[id] = nil
      gone.append(id)
      dropped.append(id)
    }
    if gone.count > 1000 { gone.removeFirst(gone.count - 1000) }
    return dropped
  }

  /// Seeds a session's group memory (after a restart, from the broker's records).
  mutating func restoreMemory(_ memory: FocusMemory, screen: String) {
    guard var session = sessions[screen] else { return }
    reduce(&session.focus, .restoreMemory(memory))
    sessions[screen] = session
  }

  /// Puts a session back as it was (nil: removes it): a change the store could not make
  /// durable is not applied.
  mutating func putBack(_ session: ScreenSession?, screen: String) {
    sessions[screen] = session
  }

  private func unknownScreen(_ id: String) -> Tenfoot_V1_Error {
    if gone.contains(id) {
      return .init(
        .screenGone,
        "screen \"\(id)\" stopped answering and its session was dropped; start the screen again")
    }
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
