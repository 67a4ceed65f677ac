import BrokerDomain
import FocusEngine
import TenFootProtocol
import TenFootSecurity

extension BrokerRequest {
  /// The domain request a control envelope makes, from the connection `peer` (its ROUTER
  /// identity, which tells apart two remotes that give the same `sender` name); throws what
  /// the edge refuses before the domain sees it.
  /// `sender`, if given, replaces the envelope's (a CURVE peer is named by its key).
  init(wire envelope: Tenfoot_V1_Envelope, peer: [UInt8], sender: String? = nil)
    throws(ControlRefusal)
  {
    try self.init(wire: envelope, body: envelope.body, peer: peer, sender: sender)
  }

  /// The domain request of `envelope`, whose body (read once by the caller) is `body`.
  init(
    wire envelope: Tenfoot_V1_Envelope, body: Tenfoot_V1_Envelope.OneOf_Body?, peer: [UInt8],
    sender: String? = nil
  ) throws(ControlRefusal) {
    let sender = sender ?? envelope.sender
    guard envelope.protocolVersion == WireProtocol.version else {
      throw .unsupportedVersion(envelope.protocolVersion)
    }
    let cause = FocusCause(sender: sender, sequence: envelope.seq)
    switch body {
    case .hello: self = .hello
    case .registerScreen(let request): self = try Self.register(request)
    case .input(let input):
      self = .input(
        try Self.remoteInput(input), screen: input.screenID.isEmpty ? nil : input.screenID,
        remote: RemoteIdentity.of(peer: peer, sender: sender), cause: cause)
    case .patchLayout(let request):
      self = .patch(try Self.patch(request), screen: request.screenID, cause: cause)
    case .focusRequest(let request):
      self = .focus(try Self.target(request), screen: request.screenID, cause: cause)
    case .appReaction(let reaction):
      var commands: [AppCommand] = []
      commands.reserveCapacity(reaction.commands.count)
      for (index, command) in reaction.commands.enumerated() {
        switch command.command {
        case .patch(let request): commands.append(.patch(try Self.patch(request)))
        case .focus(let request): commands.append(.focus(try Self.target(request)))
        case .replaceLayout(let layout): commands.append(.replaceLayout(Layout(wire: layout)))
        case nil: throw .emptyCommand(index)
        }
      }
      self = .react(
        AppReaction(stateSeq: reaction.stateSeq, commands: commands), screen: reaction.screenID,
        cause: cause)
    case .debugRequest(let request):
      guard let query = request.query else { throw .noDebugQuery }
      self = .debug(DebugQuery(wire: query), screen: request.screenID)
    case .snapshotRequest(let request):
      self = .snapshot(screen: request.screenID, app: request.app)
    case .heartbeat(let heartbeat) where !heartbeat.screenID.isEmpty:
      self = .heartbeat(screen: heartbeat.screenID)
    case .welcome, .snapshot, .delta, .ack, .error, .heartbeat, .debugReport, .pairChallenge,
      .paired, .pairingPrompt:
      throw .unexpectedMessage(Tenfoot_V1_Envelope.name(of: body))
    // The broker serves it beside the domain (`Broker.openPairing`), never as a domain request;
    // only one large enough to be prepared off the loop gets here.
    case .openPairing: throw .unexpectedMessage(Tenfoot_V1_Envelope.name(of: body))
    // Parts are gathered into their whole message before anything maps it (`Broker+Parts`).
    case .part: throw .unexpectedMessage(Tenfoot_V1_Envelope.name(of: body))
    case .pairRequest, .pairProof: throw .pairingOnControl
    case nil: throw .noBody
    }
  }

  /// The domain request of a key input read straight from its frame: what
  /// `init(wire:body:peer:sender:)` makes of the envelope SwiftProtobuf decodes from the same
  /// bytes (`KeyInputLaneTests` holds the two together).
  init(keyInput input: KeyInputFrame, peer: [UInt8], sender: String? = nil)
    throws(ControlRefusal)
  {
    let sender = sender ?? input.sender
    guard input.protocolVersion == WireProtocol.version else {
      throw .unsupportedVersion(input.protocolVersion)
    }
    let remoteInput: RemoteInput
    switch KeyMapping.input(for: input.key) {
    case .success(let value): remoteInput = value
    case .failure(let problem): throw .invalidInput(problem)
    }
    self = .input(
      remoteInput, screen: input.screenID.isEmpty ? nil : input.screenID,
      remote: RemoteIdentity.of(peer: peer, sender: sender),
      cause: FocusCause(sender: sender, sequence: input.seq))
  }

  private static func register(_ request: Tenfoot_V1_RegisterScreen) throws(ControlRefusal)
    -> BrokerRequest
  {
    if let problem = ScreenID.problem(with: request.screenID) {
      throw .invalidScreenID(problem)
    }
    guard request.hasLayout else { throw .missingLayout }
    return .register(
      screen: request.screenID, layout: Layout(wire: request.layout), app: request.app)
  }

  private static func target(_ request: Tenfoot_V1_FocusRequest) throws(ControlRefusal)
    -> FocusTarget
  {
    switch request.target {
    case .item(let id): .item(id)
    case .group(let id): .group(id)
    case .any(let id): .any(id)
    case nil: throw .noFocusTarget
    }
  }

  private static func remoteInput(_ input: Tenfoot_V1_Input) throws(ControlRefusal)
    -> RemoteInput
  {
    guard let event = input.event else { throw .noInputEvent }
    switch KeyMapping.input(for: event) {
    case .success(let value): return value
    case .failure(let problem): throw .invalidInput(problem)
    }
  }

  private static func patch(_ request: Tenfoot_V1_PatchLayout) throws(ControlRefusal)
    -> LayoutPatch
  {
    var patch: LayoutPatch
    do {
      patch = try LayoutPatch(wire: request.operations)
    } catch {
      throw .invalidPatch(error)
    }
    switch request.focus {
    case .focusItem(let id): patch.focus = .item(id)
    case .focusGroup(let id): patch.focus = .group(id)
    case nil: break
    }
    return patch
  }
}

/// Which remote an input came from: what a session keeps that remote's timing state (held
/// buttons, touches, pointer) under. Not a button: those are FocusEngine's `RemoteButton`.
enum RemoteIdentity {
  /// A remote's identity: its connection's identity in hex (libzmq's generated identities are 5
  /// bytes), or its `sender` name when there is no identity (tests).
  static func of(peer: [UInt8], sender: String) -> String {
    peer.isEmpty ? sender : Hex.encode(peer.prefix(32))
  }
}
