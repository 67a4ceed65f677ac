import BrokerDomain
import Logging
import TenFootProtocol
import TenFootSecurity
import ZeroMQ

/// Large messages off the loop. A registration of tens of thousands of items costs tens of
/// milliseconds to decode, check and map; on the loop, every other peer's press or `Hello`
/// would wait behind a pipeline of them. So a message of at least
/// `preparationThreshold` bytes goes to the `PreparationWorker`, and the loop goes on serving
/// others; when it is prepared, the worker wakes the loop, which applies it through the domain
/// and the group commit like any request (its reply still waits until it is durable). A
/// registration goes back to the worker once when it is next to apply, with its screen's
/// session as it is then (`BrokerDomain.prepareRegistration`): the engine's state for the new
/// layout and the snapshot it publishes are built there, and the loop only checks and swaps.
///
/// A connection's messages stay in order: once one of its messages is in preparation, the ones
/// it sends after (large or small) queue behind it (`PreparationLedger`) and are served when
/// it has been applied. Bytes in flight are bounded per peer and in total, and the queue per
/// connection in messages: over a bound the message is answered `RATE_LIMITED` and freed.
extension Broker {
  /// Sends a large message to the worker, or queues a message behind its connection's large
  /// ones; refuses it over the bounds.
  func prepareOffLoop(_ frames: [[UInt8]], access: PeerAccess) throws(ZeroMQError) {
    let peer = frames[0]
    let frame = frames[1]
    group?.next()
    if frame.count < configuration.preparationThreshold {
      if let refusal = preparation.queue((frames, access), connection: peer) {
        refuse(peer, frame: frame, refusal)
      }
      return
    }
    guard let principal = principal(for: access, peer: peer, frame: frame) else { return }
    switch preparation.startPreparing(connection: peer, budget: lastBudget, bytes: frame.count) {
    case .success(let id):
      worker.submit(
        .init(id: id, peer: peer, work: .decode(frame), access: access, principal: principal))
    case .failure(let refusal):
      refuse(peer, frame: frame, refusal)
    }
  }

  /// Applies what the worker finished, with whatever its connections had queued behind it, in
  /// one group commit.
  func applyPrepared() throws(ZeroMQError) {
    let finished = worker.takeFinished()
    guard !finished.isEmpty else { return }
    group?.open(&core)
    for prepared in finished {
      var ready = preparation.finish(prepared)[...]
      while let entry = ready.popFirst() {
        switch entry {
        case .prepared(let prepared, let bytes, let budget):
          if let job = registrationJob(prepared) {
            // Its second job; what its connection sent after it waits behind it again.
            preparation.prepareAgain(
              id: prepared.id, connection: prepared.peer, bytes: bytes, budget: budget,
              behind: Array(ready))
            worker.submit(job)
            ready = []
          } else {
            apply(prepared)
          }
        case .small(let small):
          lastAdmission = .serve
          try serve(small.frames, access: small.access)
        case .preparing: break
        }
      }
    }
    if let group { commit(group) }
  }

  /// The second job of a mapped registration that is next to apply: worked out on its screen's
  /// session as it is now. Nil if it is not one, or if applying it now answers it at once
  /// (its key was revoked, or it is forbidden).
  private func registrationJob(_ prepared: PreparationWorker.Prepared) -> PreparationWorker.Job? {
    guard case .request(let request) = prepared.result,
      case .register(let screen, _, _) = request
    else { return nil }
    if let security, security.principal(for: prepared.access) == nil { return nil }
    let owners = security?.owners ?? [:]
    if case .forbidden = core.domain.access(request, from: prepared.principal, owners: owners) {
      return nil
    }
    return PreparationWorker.Job(
      id: prepared.id, peer: prepared.peer,
      work: .register(prepared, base: core.domain.registrationBase(for: screen), at: now()),
      access: prepared.access, principal: prepared.principal)
  }

  /// Lets the domain handle a prepared request and carries out the outcome.
  private func apply(_ prepared: PreparationWorker.Prepared) {
    group?.next()
    let peer = prepared.peer
    // Checked again: the key may have been revoked while its message was prepared.
    if let security, security.principal(for: prepared.access) == nil {
      reply(
        to: peer, replyTo: prepared.seq,
        body: .error(.init(.notPaired, "this key was revoked: pair again (tenfoot-remote pair)")))
      return
    }
    if let input = prepared.input, case .request = prepared.result {
      // Through the usual path, so the press ledger sees it.
      return finish(
        handle(input, body: input.body, peer: peer, principal: prepared.principal), peer: peer,
        seq: prepared.seq, sender: prepared.sender, request: prepared.bodyName,
        principal: prepared.principal)
    }
    let owners = security?.owners ?? [:]
    let outcome: WireBroker.Outcome
    switch prepared.result {
    case .refused(let error):
      logRefusal(error, sender: prepared.sender, request: prepared.bodyName)
      reply(to: peer, replyTo: prepared.seq, body: .error(error))
      return
    case .request(let request):
      outcome = core.handle(request, principal: prepared.principal, owners: owners, at: now())
    case .registration(let registration, let snapshot):
      outcome = core.handle(
        registration, snapshot: snapshot, principal: prepared.principal, owners: owners,
        at: now())
    }
    // The domain says which screen the request touched (while a batch is open).
    if let group {
      group.willTouch(core.domain.takeTouchedScreen())
      group.didHandle(records: outcome.records)
    }
    finish(
      outcome, peer: peer, seq: prepared.seq, sender: prepared.sender,
      request: prepared.bodyName, principal: prepared.principal)
  }

  /// Answers a message `RATE_LIMITED`, without decoding it: too many requests gather behind
  /// the zone store's commit in flight (`GroupCommit.backlogLimit`).
  func refuseBacklogged(_ peer: [UInt8], frame: [UInt8]) {
    logLimited(
      "request refused unread: too many requests wait for the store's commit",
      ["peer": "\(Hex.encode(peer.prefix(16)))", "bytes": "\(frame.count)"])
    var error = Tenfoot_V1_Error(
      .rateLimited,
      "too many requests wait for the zone store's commit in flight: retry after its answer")
    error.retryAfterMs = 100
    reply(to: peer, replyTo: PreparationWorker.peekSeq(frame), body: .error(error))
  }

  /// Answers a message over a preparation bound `RATE_LIMITED`, without decoding it.
  private func refuse(
    _ peer: [UInt8], frame: [UInt8], _ refusal: PreparationRefusal
  ) {
    let message: String
    switch refusal {
    case .bytes(let inFlight, let limit):
      message =
        "\(inFlight / 1024) KiB of large messages already in preparation (limit \(limit / 1024)"
        + " KiB): wait for their replies"
    case .queue(let limit):
      message = "\(limit) messages already wait behind a large one: wait for its reply"
    }
    logLimited(
      "request refused unread: too much in preparation",
      ["peer": "\(Hex.encode(peer.prefix(16)))", "bytes": "\(frame.count)"])
    var error = Tenfoot_V1_Error(.rateLimited, message)
    error.retryAfterMs = 100
    reply(to: peer, replyTo: PreparationWorker.peekSeq(frame), body: .error(error))
  }
}
