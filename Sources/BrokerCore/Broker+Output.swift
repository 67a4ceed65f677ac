import BrokerDomain
import Logging
import TenFootProtocol
import ZeroMQ

/// The broker's way out: replies on the control socket and publications on the state socket,
/// held while a group commit is open (so nothing is seen before it is durable) and sent when
/// it commits.
extension Broker {
  /// Ends the group's drain (commits its batch, or sends it off the loop) and sends what may
  /// go out now.
  func commit(_ group: GroupCommit) {
    sendCommitted(group.commit(&core))
  }

  /// The store answered a commit sent off the loop: sends what it released.
  func commitAnswered() {
    guard let group, let outputs = group.answered(&core) else { return }
    sendCommitted(outputs)
  }

  /// Sends what a group commit released. A failed commit put the touched sessions back as
  /// they were, holds included: a request whose reply waited for an app's reaction in a hold
  /// that is now undone is answered STORE_UNAVAILABLE, not left waiting.
  private func sendCommitted(_ outputs: [GroupCommit.Output]) {
    send(outputs)
    guard let group, group.failing, !heldReplies.isEmpty, let refusal = group.refusal else {
      return
    }
    for (token, route) in heldReplies where !core.domain.isHolding(token: token) {
      heldReplies[token] = nil
      reply(to: route.peer, replyTo: route.replyTo, body: .error(refusal))
    }
  }

  /// Sends the outputs a group commit held.
  func send(_ outputs: [GroupCommit.Output]) {
    for output in outputs {
      switch output {
      case .reply(let peer, let replyTo, let body):
        sendReply(to: peer, replyTo: replyTo, body: body)
      case .publish(let topic, let body): sendPublication(topic: topic, body: body)
      case .publishChange(let topic, let change): sendPublication(topic: topic, change: change)
      case .publishSnapshot(let topic, let bytes): sendSnapshot(topic: topic, bytes: bytes)
      }
    }
  }

  func reply(to peer: [UInt8], replyTo: UInt64, body: Tenfoot_V1_Envelope.OneOf_Body) {
    reply(to: peer, replyTo: replyTo, body: .body(body))
  }

  /// Replies `body` (a press's acknowledgement written from the domain's value).
  func reply(to peer: [UInt8], replyTo: UInt64, body: OutgoingReply) {
    if let group, group.isOpen {
      group.hold(.reply(peer: peer, replyTo: replyTo, body: body))
    } else {
      sendReply(to: peer, replyTo: replyTo, body: body)
    }
  }

  /// Writes a screen's claims (`binds`) to the allow-list; the reply to its request `seq`
  /// from `peer` goes out once they are durable or failed (and not before it is ready).
  func claim(_ binds: [(screen: String, key: String)], replyingTo peer: [UInt8], seq: UInt64) {
    guard let security else { return }
    let route = ClaimReplies.Route(peer: peer, replyTo: seq)
    claimReplies.wait(route, writes: binds.count)
    for bind in binds {
      security.bind(screen: bind.screen, key: bind.key) { [unowned self] in
        if let body = claimReplies.written(route) { sendReply(to: peer, replyTo: seq, body: body) }
      }
    }
  }

  private func sendReply(to peer: [UInt8], replyTo: UInt64, body: OutgoingReply) {
    // A registration's reply waits for its claim (one emptiness check for every other reply).
    if !claimReplies.isEmpty, claimReplies.keep(.init(peer: peer, replyTo: replyTo), body) {
      return
    }
    sentCount += 1
    outgoing.reset()
    switch body {
    case .body(let body):
      Tenfoot_V1_Envelope.write(
        sender: "broker", seq: sentCount, sentAtNanoseconds: now().nanoseconds, replyTo: replyTo,
        body: body, to: &outgoing)
    case .ack(let ack):
      Tenfoot_V1_Envelope.write(
        sender: "broker", seq: sentCount, sentAtNanoseconds: now().nanoseconds, replyTo: replyTo,
        bodyField: Tenfoot_V1_Envelope.ackField, to: &outgoing
      ) { ack.writeAck(to: &$0) }
    }
    do {
      // dontWait: a peer that stopped reading must not stall the broker; its reply is dropped.
      let sent = try outgoing.withUnsafeBytes { envelope throws(ZeroMQError) in
        try control.send(peer, envelope, dontWait: true)
      }
      if !sent {
        logger.warning("dropped reply: peer not reading", metadata: ["peer": "\(hex(peer))"])
      }
    } catch {
      logger.warning("dropped reply", metadata: ["peer": "\(hex(peer))", "error": "\(error)"])
    }
  }

  func publish(topic: String, body: Tenfoot_V1_Envelope.OneOf_Body) {
    if let group, group.isOpen {
      group.hold(.publish(topic: topic, body: body))
    } else {
      sendPublication(topic: topic, body: body)
    }
  }

  /// Publishes a step's change as its delta, written from the domain's value.
  func publish(topic: String, change: StateChange) {
    if let group, group.isOpen {
      group.hold(.publishChange(topic: topic, change: change))
    } else {
      sendPublication(topic: topic, change: change)
    }
  }

  /// Publishes a snapshot encoded beforehand (a `ScreenState`, see `WireBroker.Outcome`).
  func publishSnapshot(topic: String, bytes: [UInt8]) {
    if let group, group.isOpen {
      group.hold(.publishSnapshot(topic: topic, bytes: bytes))
    } else {
      sendSnapshot(topic: topic, bytes: bytes)
    }
  }

  private func sendPublication(topic: String, body: Tenfoot_V1_Envelope.OneOf_Body) {
    let seq = nextPublication()
    outgoing.reset()
    Tenfoot_V1_Envelope.write(
      sender: "broker", seq: seq, sentAtNanoseconds: now().nanoseconds, body: body,
      to: &outgoing)
    outgoing.withUnsafeBytes { sendPublication(topic: topic, envelope: $0) }
  }

  private func sendPublication(topic: String, change: StateChange) {
    let seq = nextPublication()
    outgoing.reset()
    Tenfoot_V1_Envelope.write(
      sender: "broker", seq: seq, sentAtNanoseconds: now().nanoseconds,
      bodyField: Tenfoot_V1_Envelope.deltaField, to: &outgoing
    ) { change.writeDelta(to: &$0) }
    outgoing.withUnsafeBytes { sendPublication(topic: topic, envelope: $0) }
  }

  private func sendSnapshot(topic: String, bytes: [UInt8]) {
    var header = Tenfoot_V1_Envelope()
    header.protocolVersion = WireProtocol.version
    header.sender = "broker"
    header.seq = nextPublication()
    header.sentAtNs = now().nanoseconds
    sendPublication(
      topic: topic, envelope: header.encoded(bodyField: Tenfoot_V1_Envelope.snapshotField, bytes))
  }

  /// The seq of the publication about to be encoded. Whichever check noticed a revoke
  /// (watcher, timer, ZAP, a control message's sender), the revoked subscriber is cut off
  /// first, before anything more is published.
  private func nextPublication() -> UInt64 {
    cutRevokedSubscribers()
    sentCount += 1
    return sentCount
  }

  /// Publishes an envelope encoded with `nextPublication()`'s seq.
  private func sendPublication(topic: String, envelope: [UInt8]) {
    envelope.withUnsafeBytes { sendPublication(topic: topic, envelope: $0) }
  }

  /// Publishes an envelope encoded with `nextPublication()`'s seq, from the memory it was
  /// written to (the reused `outgoing` buffer: not copied into an array to be sent).
  private func sendPublication(topic: String, envelope: UnsafeRawBufferPointer) {
    // The topic frame is sent from the string's own UTF-8 (no array made for it), then the
    // envelope, as `send(_:_:dontWait:)` sends two frames.
    var topic = topic
    do {
      // PUB never blocks: at the high-water mark it drops, and screens resync on the gap.
      let started = try topic.withUTF8 { topic in
        try state.send(UnsafeRawBufferPointer(topic), more: true, dontWait: true)
      }
      // libzmq guarantees the remaining frames of a started multipart message are accepted.
      if started { try state.send(envelope) }
    } catch {
      logger.warning("publish failed", metadata: ["topic": "\(topic)", "error": "\(error)"])
    }
  }
}
