import BrokerDomain
import FocusEngine
import TenFootProtocol

/// The broker domain behind its wire edge: maps a decoded control envelope to a domain
/// request, lets the domain handle it, and maps the reply and the publications back to wire
/// bodies. The records to persist are passed on as domain values for the store. No sockets:
/// `Broker` does the I/O, and the fuzz targets call this directly.
///
/// A value, like the domain: the runtime keeps a copy to roll back to when a change cannot be
/// made durable.
struct WireBroker {
  /// The broker's rules and sessions.
  var domain: BrokerDomain

  /// What handling one envelope produced.
  struct Outcome {
    /// The reply for the requester: a wire body, or a press's acknowledgement kept as the
    /// domain's value and written when it is sent (`Acknowledgement.writeAck`).
    var outgoingReply: OutgoingReply
    /// State messages for the PUB socket, in order.
    var outgoing: [(topic: String, publication: OutgoingPublication)] = []
    /// A registration prepared off the loop: the snapshot it publishes, encoded there (a
    /// `ScreenState`), in place of a publication (it publishes nothing else).
    var encodedSnapshot: (topic: String, bytes: [UInt8])?
    /// Records to make durable before anything is published or acknowledged.
    var records: [SessionRecord] = []
    /// Screen ids a screen key claimed (screen id, hex key) for the allow-list.
    var binds: [(screen: String, key: String)] = []
    /// Set when the request's reply is held for an app's reaction: the token its reply will
    /// be released under (`reply` is then not sent).
    var held: UInt64?
    /// Replies of requests held earlier, now due: sent after the publications.
    var released: [(token: UInt64, body: Tenfoot_V1_Envelope.OneOf_Body)] = []
    /// The press id to record as applied with the commit (see `PressLedger`).
    var press: String?

    /// An outcome replying `reply`.
    init(reply: Tenfoot_V1_Envelope.OneOf_Body) { outgoingReply = .body(reply) }

    /// An outcome replying `reply`, written when it is sent.
    init(reply: OutgoingReply) { outgoingReply = reply }

    /// The reply as a wire body (an acknowledgement made as its `Ack`, the message its
    /// writer mirrors).
    var reply: Tenfoot_V1_Envelope.OneOf_Body {
      get { outgoingReply.body }
      set { outgoingReply = .body(newValue) }
    }

    /// The state messages as wire bodies (a change made as its `StateDelta`), in order.
    var publications: [(topic: String, body: Tenfoot_V1_Envelope.OneOf_Body)] {
      outgoing.map { ($0.topic, $0.publication.body) }
    }
  }

  /// A broker with no sessions; with `records` (maybe none) it persists sessions.
  init(
    epoch: UInt64, name: String, screensPerKey: Int = 16, records: [String: SessionRecord]? = nil
  ) {
    domain = BrokerDomain(
      epoch: epoch, name: name, screensPerKey: screensPerKey, records: records)
  }

  /// Handles one decoded request from the connection `peer`, arrived at `now`, from
  /// `principal` (its role decides what it may do; a CURVE peer's `sender` is replaced by its
  /// key's id, so nobody speaks as another); `owners` maps screen ids to the keys that own them.
  /// With `press`, the domain applies the input at most once.
  mutating func handle(
    _ envelope: Tenfoot_V1_Envelope, peer: [UInt8] = [], principal: Principal = .local,
    owners: [String: String] = [:], press: Press? = nil, at now: BrokerInstant
  ) -> Outcome {
    handle(
      envelope, body: envelope.body, peer: peer, principal: principal, owners: owners,
      press: press, at: now)
  }

  /// Handles `envelope`, whose body (read once by the caller) is `body`, as above.
  mutating func handle(
    _ envelope: Tenfoot_V1_Envelope, body: Tenfoot_V1_Envelope.OneOf_Body?, peer: [UInt8],
    principal: Principal, owners: [String: String], press: Press?, at now: BrokerInstant
  ) -> Outcome {
    let request: BrokerRequest
    do {
      request = try BrokerRequest(
        wire: envelope, body: body, peer: peer, sender: Self.sender(of: principal))
    } catch {
      return Outcome(reply: .error(Tenfoot_V1_Error(error)))
    }
    return handle(request, press: press, principal: principal, owners: owners, at: now)
  }

  /// Handles a key input read straight from its frame (`KeyInputFrame`), as `handle(_:body:…)`
  /// handles the envelope SwiftProtobuf decodes from the same bytes.
  mutating func handle(
    _ input: KeyInputFrame, peer: [UInt8], principal: Principal, owners: [String: String],
    press: Press?, at now: BrokerInstant
  ) -> Outcome {
    let request: BrokerRequest
    do {
      request = try BrokerRequest(keyInput: input, peer: peer, sender: Self.sender(of: principal))
    } catch {
      return Outcome(reply: .error(Tenfoot_V1_Error(error)))
    }
    return handle(request, press: press, principal: principal, owners: owners, at: now)
  }

  /// The name a request from `principal` is made under in place of the envelope's `sender`:
  /// nil for a local peer, else its key's id (a CURVE peer speaks as nobody else).
  static func sender(of principal: Principal) -> String? {
    principal.role == .local ? nil : principal.id
  }

  /// Lets the domain handle a request mapped from the wire, at most once with `press`.
  private mutating func handle(
    _ request: BrokerRequest, press: Press?, principal: Principal, owners: [String: String],
    at now: BrokerInstant
  ) -> Outcome {
    // In two steps, and `map` static: `map(domain.handle(…))` would copy `self` for the call
    // while the argument mutates it, and every press would copy the sessions dictionary.
    let handled =
      if let press {
        domain.handle(request, press: press, from: principal, owners: owners, at: now)
      } else {
        domain.handle(request, from: principal, owners: owners, at: now)
      }
    return Self.map(handled)
  }

  /// Handles a request already mapped from the wire (off the loop, see `PreparationWorker`).
  mutating func handle(
    _ request: BrokerRequest, principal: Principal, owners: [String: String],
    at now: BrokerInstant
  ) -> Outcome {
    handle(request, press: nil, principal: principal, owners: owners, at: now)
  }

  /// Applies a registration prepared off the loop (`BrokerDomain.prepareRegistration`), with
  /// `snapshot`, the encoded `ScreenState` of the snapshot it publishes: sent as it is when the
  /// domain used the prepared result; when it did not (the session changed meanwhile), the
  /// snapshot the domain published instead is mapped as usual.
  mutating func handle(
    _ registration: BrokerDomain.PreparedRegistration, snapshot: [UInt8]?,
    principal: Principal, owners: [String: String], at now: BrokerInstant
  ) -> Outcome {
    let handled = domain.handle(registration, from: principal, owners: owners, at: now)
    guard handled.prepared, let snapshot else { return Self.map(handled.outcome) }
    return Self.map(handled.outcome, encodedSnapshot: snapshot)
  }

  /// Releases the holds whose app did not react in time; one outcome per screen (its
  /// `reply` unused).
  mutating func releaseExpiredHolds(at now: BrokerInstant) -> [(screen: String, Outcome)] {
    domain.releaseExpiredHolds(at: now).map { released in
      (
        released.screen,
        Self.map(
          BrokerDomain.Outcome(
            reply: .ack(
              Acknowledgement(
                screen: released.screen, seq: 0, focused: nil)), effects: released.effects))
      )
    }
  }

  /// The wire form of a domain outcome; with `encodedSnapshot`, the encoding of its snapshot
  /// publication (which is then not mapped again). A step's change stays the domain's value,
  /// written when it is sent (`StateChange.writeDelta`).
  private static func map(_ handled: BrokerDomain.Outcome, encodedSnapshot: [UInt8]? = nil)
    -> Outcome
  {
    var outcome = Outcome(reply: handled.reply.outgoing)
    for effect in handled.effects {
      switch effect {
      case .publish(.change(let change)):
        outcome.outgoing.append((WireProtocol.stateTopic(screen: change.screen), .change(change)))
      case .publish(.snapshot(let snapshot)) where encodedSnapshot != nil:
        outcome.encodedSnapshot = (
          WireProtocol.stateTopic(screen: snapshot.screen), encodedSnapshot ?? []
        )
      case .publish(let publication):
        let wire = publication.wire
        outcome.outgoing.append((wire.topic, .body(wire.body)))
      case .persist(let record): outcome.records.append(record)
      case .bind(let screen, let key): outcome.binds.append((screen, key))
      case .release(let token, let reply): outcome.released.append((token, reply.wire))
      }
    }
    outcome.press = handled.recordedPress
    if case .held(let token, _) = handled.reply { outcome.held = token }
    return outcome
  }
}

/// A reply for the control socket: a wire body, or a press's acknowledgement, which the broker
/// writes straight from the domain's value as it sends it (the reply to every press).
enum OutgoingReply {
  case body(Tenfoot_V1_Envelope.OneOf_Body)
  case ack(Acknowledgement)

  /// The wire body (an acknowledgement made as its `Ack`, the message its writer mirrors).
  var body: Tenfoot_V1_Envelope.OneOf_Body {
    switch self {
    case .body(let body): body
    case .ack(let ack): .ack(Tenfoot_V1_Ack(ack))
    }
  }

  /// The error the reply carries, if it is one.
  var error: Tenfoot_V1_Error? {
    if case .body(.error(let error)) = self { return error }
    return nil
  }
}

/// A state message for the PUB socket: a wire body, or a step's change, which the broker
/// writes straight from the domain's value as it sends it (the delta of every press).
enum OutgoingPublication {
  case body(Tenfoot_V1_Envelope.OneOf_Body)
  case change(StateChange)

  /// The wire body (a change made as its `StateDelta`, the message its writer mirrors).
  var body: Tenfoot_V1_Envelope.OneOf_Body {
    switch self {
    case .body(let body): body
    case .change(let change): .delta(Tenfoot_V1_StateDelta(change))
    }
  }

}
