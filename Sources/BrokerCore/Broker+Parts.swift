import BrokerDomain
import TenFootProtocol
import ZeroMQ

/// Messages sent in parts (`MessagePart`, docs/protocol.md "Large messages in parts"). The
/// control socket's message size limit is small (`WireProtocol.defaultMaxMessageSize`) so that
/// libzmq's I/O thread, which decrypts each CURVE message whole and reads no other connection
/// meanwhile, never spends long on one peer's message; a layout larger than that comes in
/// parts. Parts are gathered on the loop (`PartAssembly`, a copy of each part's bytes) as they
/// arrive; the whole message then takes the path a message of its size takes when it arrives
/// whole (large ones are prepared off the loop), so it is checked, ordered behind its
/// connection's earlier messages and applied atomically: nothing of it before its last part.
/// Parts are charged to the peer's message and byte budgets as they arrive; the whole message
/// is not charged again.
extension Broker {
  /// Gathers `frames` if it is a part within its peer's budget (true: taken). A part refused
  /// over budget breaks its message, answered once like any refused message (false: the
  /// caller answers it `RATE_LIMITED`); the rest of its parts are then dropped unanswered.
  func takeIfPart(_ frames: [[UInt8]], access: PeerAccess) throws(ZeroMQError) -> Bool {
    switch lastAdmission {
    case .serve:
      guard mayBePart(frames[1]) else { return false }
      try assemblePart(frames, access: access)
      return true
    case .refuse:
      if MessageParts.isPart(frames[1]) {
        parts.refuse(frames[0], seq: PreparationWorker.peekSeq(frames[1]))
      }
      return false
    case .drop:
      return false
    }
  }

  /// Whether `frame` must be looked at as a possible part before the usual path: only when a
  /// message is being assembled or prepared, or the frame is large, so a press pays two
  /// emptiness checks and a size comparison (a small part otherwise arrives decoded in
  /// `serve`).
  func mayBePart(_ frame: [UInt8]) -> Bool {
    (!parts.isEmpty || !preparation.isEmpty || frame.count >= configuration.preparationThreshold)
      && MessageParts.isPart(frame)
  }

  /// A part read off the socket (not yet decoded): checks its sender, decodes it, adds it.
  func assemblePart(_ frames: [[UInt8]], access: PeerAccess) throws(ZeroMQError) {
    let peer = frames[0]
    guard let principal = principal(for: access, peer: peer, frame: frames[1]) else {
      parts.discard(peer)
      return
    }
    guard let envelope = try? Tenfoot_V1_Envelope.decode(frames[1]),
      case .part(let part) = envelope.body
    else {
      parts.discard(peer)
      logLimited("dropped request: malformed part", ["peer": "\(hex(peer))"])
      reply(
        to: peer, replyTo: 0, body: .error(.init(.malformed, "a message part that does not decode"))
      )
      return
    }
    try add(part, seq: envelope.seq, peer: peer, access: access, principal: principal)
  }

  /// Adds a decoded part to its connection's message, answers what it discarded, and serves
  /// the message once it is whole.
  func add(
    _ part: Tenfoot_V1_MessagePart, seq: UInt64, peer: [UInt8], access: PeerAccess,
    principal: Principal
  ) throws(ZeroMQError) {
    if principal.role == .remote {
      // A remote's messages are smaller than one part: parts only hold its budget's bytes.
      parts.discard(peer)
      return refuseParts(peer, seq: seq, .tooLarge(limit: configuration.maxRemoteMessageSize))
    }
    let added = parts.add(
      [UInt8](part.data), index: part.index, count: part.count, seq: seq, from: peer, at: now())
    if let abandoned = added.abandoned { refuseParts(peer, seq: abandoned, .abandoned) }
    switch added.outcome {
    case .waiting, .ignored: return
    case .refused(let refusal): refuseParts(peer, seq: seq, refusal)
    case .complete(let whole):
      guard !MessageParts.isPart(whole) else {
        return refuseParts(peer, seq: seq, .nested)
      }
      try dispatch([peer, whole], access: access)
    }
  }

  /// Serves a message (whole) as the control loop does: large ones, and those of a connection
  /// with one in preparation, off the loop; the rest at once.
  func dispatch(_ frames: [[UInt8]], access: PeerAccess) throws(ZeroMQError) {
    if frames[1].count >= configuration.preparationThreshold
      || (!preparation.isEmpty && preparation.isWaiting(frames[0]))
    {
      try prepareOffLoop(frames, access: access)
    } else {
      try serve(frames, access: access)
    }
  }

  /// Discards the messages whose parts stopped coming, answering each (on the heartbeat).
  func expireParts() {
    guard !parts.isEmpty else { return }
    for (peer, seq) in parts.expire(at: now()) { refuseParts(peer, seq: seq, .expired) }
  }

  /// Answers the message `seq` of `peer`, discarded: PARTS_REFUSED, or RATE_LIMITED when all
  /// connections' incomplete messages hold too many bytes.
  func refuseParts(_ peer: [UInt8], seq: UInt64, _ refusal: PartRefusal) {
    let error: Tenfoot_V1_Error
    switch refusal {
    case .overBudget(let limit):
      var limited = Tenfoot_V1_Error(
        .rateLimited,
        "messages in parts already hold \(limit / 1024) KiB of the broker's memory: try again")
      limited.retryAfterMs = 100
      error = limited
    default:
      error = Tenfoot_V1_Error(.partsRefused, refusal.sentence)
    }
    logLimited(
      "message in parts refused",
      ["peer": "\(hex(peer))", "seq": "\(seq)", "error.message": "\(error.message)"])
    reply(to: peer, replyTo: seq, body: .error(error))
  }
}

/// Why a message sent in parts was discarded: the assembly's rules, and a whole message that
/// is itself a part.
typealias PartRefusal = PartAssembly<[UInt8]>.Refusal

extension PartAssembly.Refusal {
  /// The sentence for people, with what to do.
  var sentence: String {
    switch self {
    case .outOfOrder(let expected, let got):
      "message part \(got) came where part \(expected) was expected: the message was discarded, "
        + "send it again from part 0"
    case .badCount(let count):
      "a message in \(count) parts: the count must be above the index, the same in every part "
        + "and at most \(MessageParts.maxParts)"
    case .tooLarge(let limit):
      "the whole message exceeds \(limit / 1024) KiB: the message was discarded"
    case .overBudget(let limit):
      "messages in parts already hold \(limit / 1024) KiB of the broker's memory"
    case .abandoned:
      "another message's first part came before this one's last: this one was discarded"
    case .expired:
      "the message's next part did not come in time: the message was discarded"
    case .nested:
      "a message sent in parts is itself a part: the message was discarded"
    }
  }
}
