import BrokerDomain
import TenFootStore

/// A store whose commit is a round trip, committed off the loop (see `GroupCommit`): one
/// commit in flight, the next batch gathering behind it.
extension GroupCommit {
  /// Counts a request arriving while a commit is in flight: false (refuse it) once the batch
  /// gathering behind the commit holds `backlogLimit` requests or bytes.
  func admit(bytes: Int) -> Bool {
    guard inFlight != nil else { return true }
    guard backlog.messages < backlogLimit.messages, backlog.bytes + bytes <= backlogLimit.bytes
    else { return false }
    backlog.messages += 1
    backlog.bytes += bytes
    return true
  }

  /// Whether a commit is in flight.
  var isCommitting: Bool { inFlight != nil }

  /// Seals the gathered batch and sends it to the store; returns the outputs that need no
  /// commit (all of them if the store answered at once).
  func send(_ core: inout WireBroker) -> [Output] {
    guard let token, let store = asynchronous, let mailbox else { return [] }
    self.token = nil
    backlog = (0, 0)
    core.domain.seal(token)
    let sent = batch
    batch = CommitBatch()
    inFlight = (sent, token)
    if let answer = store.startCommit(sent.changes.values, answered: mailbox.deliver) {
      return finish(&core, answer, fromStore: false)
    }
    let waiting = sent.waitingScreens
    return inFlight?.batch.release(waiting: waiting, heldPeers: []) ?? []
  }

  /// Ends a drain while a commit is in flight: the gathered batch's outputs that depend on no
  /// change waiting to be durable go out; the domain forgets the screens it only read, so a
  /// later change in the batch keeps their state from after these outputs.
  func release(_ core: inout WireBroker) -> [Output] {
    guard let inFlight else { return [] }
    core.domain.settle()
    let waiting = inFlight.batch.waitingScreens.union(batch.waitingScreens)
    return batch.release(waiting: waiting, heldPeers: inFlight.batch.heldPeers)
  }

  /// The store's answer to the commit in flight, if it came (a loop event): returns what to
  /// send, nil if no answer is waiting. After a success the gathered batch is sent next.
  func answered(_ core: inout WireBroker) -> [Output]? {
    guard let answer = mailbox?.take() else { return nil }
    return finish(&core, answer, fromStore: true)
  }

  /// Ends the commit in flight with `answer` (from the store's callback, or given at once).
  private func finish(
    _ core: inout WireBroker, _ answer: Result<Void, SessionStoreError>, fromStore: Bool
  ) -> [Output] {
    guard var sent = inFlight, let store = asynchronous else { return [] }
    inFlight = nil
    do {
      if fromStore { try store.finishCommit(answer) } else { try answer.get() }
    } catch {
      return refuseAll(&core, &sent, failure: error)
    }
    committed(&core, sent.token, changed: sent.batch.changes.count)
    var outputs = sent.batch.end(refusing: []) { $0 }
    if token != nil, !isOpen { outputs += send(&core) }
    return outputs
  }

  /// A failed commit: its batch and the one gathered on it are rolled back, the requests that
  /// touched a screen put back are refused, and the gathered batch's press ids of those
  /// screens are not recorded.
  private func refuseAll(
    _ core: inout WireBroker,
    _ sent: inout (batch: CommitBatch<Output>, token: BrokerDomain.BatchToken),
    failure: SessionStoreError
  ) -> [Output] {
    let (error, undone) = rollBack(&core, sent.token, failure: failure)
    token = nil
    backlog = (0, 0)
    if let store = presses?.store {
      for press in batch.presses where press.screen.map(undone.contains) ?? true {
        store.forget(press: press.id)
      }
    }
    return refuse(&sent.batch, undone: undone, with: error)
      + refuse(&batch, undone: undone, with: error)
  }
}
