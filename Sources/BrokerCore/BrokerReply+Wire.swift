import BrokerDomain
import FocusEngine
import TenFootProtocol

extension BrokerReply {
  /// The reply's wire body.
  var wire: Tenfoot_V1_Envelope.OneOf_Body {
    switch self {
    case .welcome(let welcome):
      var wire = Tenfoot_V1_Welcome()
      wire.protocolVersion = WireProtocol.version
      wire.epoch = welcome.epoch
      wire.broker = welcome.name
      wire.screens = welcome.screens
      return .welcome(wire)
    case .ack(let ack): return .ack(Tenfoot_V1_Ack(ack))
    case .snapshot(let snapshot): return .snapshot(Tenfoot_V1_ScreenState(snapshot))
    case .debugReport(let screen, let answer):
      var report = Tenfoot_V1_DebugReport()
      report.screenID = screen
      report.text = answer.lines.joined(separator: "\n")
      return .debugReport(report)
    case .error(let error): return .error(Tenfoot_V1_Error(error))
    case .held, .expired:
      // Never sent: the runtime keeps the request's route and sends the released reply.
      return .ack(Tenfoot_V1_Ack())
    }
  }
}

extension BrokerReply {
  /// The reply as it goes out: an acknowledgement kept as the domain's value (written when
  /// sent), anything else as its wire body.
  var outgoing: OutgoingReply {
    if case .ack(let ack) = self { return .ack(ack) }
    return .body(wire)
  }
}

extension Publication {
  /// The topic and wire body to publish on the state socket.
  var wire: (topic: String, body: Tenfoot_V1_Envelope.OneOf_Body) {
    switch self {
    case .snapshot(let snapshot):
      (WireProtocol.stateTopic(screen: snapshot.screen), .snapshot(.init(snapshot)))
    case .change(let change):
      (WireProtocol.stateTopic(screen: change.screen), .delta(.init(change)))
    }
  }
}

extension DebugAnswer {
  /// The answer as lines of text for people.
  var lines: [String] {
    switch self {
    case .explanation(let explanation): explanation.lines
    case .tabLoop(let stops):
      stops.enumerated().map { position, stop in
        "\(position + 1). \(stop.group ?? "(top level)") → \(stop.entry ?? "nothing focusable")"
      }
    case .groupTree(let lines): lines
    case .dryRun(let focused, let moved, let effects):
      ["focused: \(focused ?? "null")", "moved: \(moved)"]
        + effects.map { Tenfoot_V1_FocusEffect($0).summary }
    }
  }
}

extension Tenfoot_V1_Ack {
  /// The wire form of an acknowledgement.
  init(_ ack: Acknowledgement) {
    self.init()
    screenID = ack.screen
    stateSeq = ack.seq
    if let focused = ack.focused { self.focused = focused }
    effects = ack.effects.map(Tenfoot_V1_FocusEffect.init)
    editingText = ack.editingText
    app = ack.app
  }
}

extension Acknowledgement {
  /// Writes the contents of `Tenfoot_V1_Ack(self)` without making it: the reply to every
  /// press, written from the domain's value into the broker's reused buffer as a step's change
  /// is (`StateChange.writeDelta`). Field by field as `Tenfoot_V1_Ack.write(to:)`;
  /// `DirectAckEncodingTests` pins the bytes to the message the initialiser makes.
  func writeAck(to writer: inout WireWriter) {
    if seq != 0 { writer.uint64(1, seq) }
    if let focused { writer.string(2, focused) }
    for effect in effects { writer.message(3) { effect.write(to: &$0) } }
    if !screen.isEmpty { writer.string(4, screen) }
    if editingText { writer.bool(5, true) }
    if app { writer.bool(6, true) }
  }
}

extension Tenfoot_V1_ScreenState {
  /// The wire form of a session's whole state.
  init(_ snapshot: SessionSnapshot) {
    self.init()
    let focus = snapshot.focus
    screenID = snapshot.screen
    epoch = snapshot.epoch
    seq = snapshot.seq
    layout = Tenfoot_V1_Layout(focus.layout)
    if let focused = focus.focused { self.focused = focused }
    states = focus.layout.items.map { item in
      var itemState = Tenfoot_V1_ItemState()
      itemState.id = item.id
      itemState.state = Tenfoot_V1_FocusDisplayState(focus.displayState(of: item))
      return itemState
    }
    // Virtual items are not listed: only those whose state differs from unfocused (the
    // focused one, selected ones, those their content makes unavailable) are sent, by their
    // `group#index` ids.
    let virtual =
      (focus.selected.sorted() + [focus.focused].compactMap { $0 } + focus.unavailableVirtualItems)
      .filter { focus.virtualIndex(of: $0) != nil }
    for id in virtual where !states.contains(where: { $0.id == id }) {
      guard let state = focus.displayState(of: id) else { continue }
      var itemState = Tenfoot_V1_ItemState()
      itemState.id = id
      itemState.state = Tenfoot_V1_FocusDisplayState(state)
      states.append(itemState)
    }
    if let parallax = snapshot.parallax { self.parallax = Tenfoot_V1_Parallax(parallax) }
    text = focus.textValues
    editingText = focus.isEditingText
    scroll = focus.scrollOffsets.sorted { $0.key < $1.key }
      .filter { $0.value != .zero }
      .map { Tenfoot_V1_ScrollOffset(group: $0.key, offset: $0.value) }
    if focus.pointer != PointerState() {  // Only once a pointer has been used.
      pointer = Tenfoot_V1_PointerState(focus.pointerPresentation)
    }
    if let announcement = snapshot.announcement {
      self.announcement = Tenfoot_V1_Announcement(announcement)
    }
    itemsInView = snapshot.itemsInView.map {
      Tenfoot_V1_ItemsInView(group: $0.group, range: $0.range)
    }
  }
}

extension Tenfoot_V1_StateDelta {
  /// The wire form of one step of a session.
  init(_ change: StateChange) {
    self.init()
    screenID = change.screen
    epoch = change.epoch
    seq = change.seq
    if let focused = change.focused { self.focused = focused }
    changed = change.changed.map { item in
      var state = Tenfoot_V1_ItemState()
      state.id = item.id
      state.state = Tenfoot_V1_FocusDisplayState(item.state)
      return state
    }
    effects = change.effects.map(Tenfoot_V1_FocusEffect.init)
    for effect in change.effects {
      if case .scrolled(let group, let offset) = effect {
        scroll.append(Tenfoot_V1_ScrollOffset(group: group, offset: offset))
      }
    }
    cause.sender = change.cause.sender
    cause.seq = change.cause.sequence
    if let parallax = change.parallax { self.parallax = Tenfoot_V1_Parallax(parallax) }
    text = change.text
    editingText = change.editingText
    if let announcement = change.announcement {
      self.announcement = Tenfoot_V1_Announcement(announcement)
    }
    if let pointer = change.pointer { self.pointer = Tenfoot_V1_PointerState(pointer) }
  }
}

extension Tenfoot_V1_Error {
  /// An error with a code and a message for people.
  init(_ code: Tenfoot_V1_ErrorCode, _ message: String) {
    self.init()
    self.code = code
    self.message = message
  }

  /// The wire form of a domain refusal: its code, and the sentence for people.
  init(_ error: BrokerError) {
    switch error {
    case .invalidLayout(let problem): self.init(.invalidLayout, problem.description)
    case .tooManyItems(let count, let limit):
      self.init(.invalidLayout, "items: \(count) items is more than the limit of \(limit)")
    case .noScreenRegistered: self.init(.ambiguousScreen, "no screen is registered yet")
    case .ambiguousScreen(let known):
      self.init(
        .ambiguousScreen,
        "several screens are registered (\(known.joined(separator: ", "))); name one")
    case .unknownScreen(let id, let known):
      let list = known.isEmpty ? "none are registered" : "known: \(known.joined(separator: ", "))"
      self.init(.unknownScreen, "no screen session \"\(id)\" (\(list))")
    case .screenGone(let id):
      self.init(
        .screenGone,
        "screen \"\(id)\" stopped answering and its session was dropped; start the screen again")
    case .noTextField(let reason): self.init(.noTextField, reason)
    case .focusDenied(let denial):
      self.init(Tenfoot_V1_ErrorCode(denial.reason), denial.message)
    case .unknownDebugInput(let name): self.init(.invalidInput, "unknown input \"\(name)\"")
    case .forbidden(let refusal): self.init(.forbidden, refusal.sentence)
    }
  }

  /// The wire form of a refusal at the edge.
  init(_ refusal: ControlRefusal) {
    switch refusal {
    case .unsupportedVersion(let version):
      self.init(
        .unsupportedVersion,
        "protocol_version \(version) is not supported; this broker speaks \(WireProtocol.version)")
    case .unexpectedMessage(let name):
      self.init(.unexpectedMessage, "\(name) is not a request the broker accepts")
    case .pairingOnControl:
      self.init(.unexpectedMessage, "pairing happens on the broker's pairing endpoint")
    case .noBody: self.init(.malformed, "envelope has no body")
    case .invalidScreenID(let problem): self.init(.invalidLayout, problem)
    case .missingLayout: self.init(.invalidLayout, "layout: required field is missing")
    case .invalidPatch(let problem): self.init(.invalidLayout, problem.description)
    case .invalidInput(let problem): self.init(.invalidInput, problem.description)
    case .noInputEvent: self.init(.invalidInput, "input has no event")
    case .noFocusTarget: self.init(.invalidInput, "focus request has no target")
    case .noDebugQuery: self.init(.invalidInput, "debug request has no query")
    case .emptyCommand(let index):
      self.init(.invalidInput, "app_reaction.commands[\(index)] has no command")
    }
  }
}

extension AccessRefusal {
  /// The refusal for people: who, what, and why.
  var sentence: String {
    let screen = self.screen.map { " for screen \"\($0)\"" } ?? ""
    let why: String
    switch reason {
    case .role: why = "a \(role.rawValue) key may not send \(request)"
    case .ownedByAnother: why = "the screen is owned by another screen key"
    case .notBound: why = "this \(role.rawValue) key is not allowed this screen"
    case .tooManyScreens(let limit):
      why = "this screen key already owns \(limit) screens, the most a key may"
    }
    return "forbidden: \(request)\(screen) from \(peer): \(why) (see docs/security.md)"
  }
}
