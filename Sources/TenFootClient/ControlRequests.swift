import TenFootProtocol
import ZeroMQ

/// Control requests whose replies come back as loop events, so the loop keeps reading and
/// drawing while one is outstanding: a table of pending requests by sequence number, each
/// with its deadline as a loop timer.
///
/// `send` returns at once; the completion runs later on the loop: with the reply whose
/// `replyTo` matches, or with `ControlConnection.noAnswer` at the deadline (a late reply is
/// then dropped), or with the handshake's refusal. While no connection is up (`ZMQ_IMMEDIATE`)
/// requests wait in order and are tried again every `retryInterval` until their deadline.
/// When the one broker closes the connection (it stopped or restarted; see `abandonSent()`),
/// the requests sent on it fail at once. A completion may throw: that ends the loop's `run()`,
/// as a handler's error does.
///
/// Owned by the loop's thread, like the connection's socket. Used by the screen's loop and by
/// the phone remote's (one per phone session, replaced with its connection).
public final class ControlRequests {
  /// What runs on the loop with a request's reply or failure.
  public typealias Completion = (Result<Tenfoot_V1_Envelope.OneOf_Body, ControlError>) throws ->
    Void

  private struct Request {
    let body: Tenfoot_V1_Envelope.OneOf_Body
    let deadline: ContinuousClock.Instant
    let completion: Completion
  }

  /// How often requests waiting for a connection are tried again.
  public static let retryInterval: Duration = .milliseconds(10)

  private let connection: ControlConnection
  private unowned let loop: EventLoop
  /// Sent requests by sequence number, with their deadline timers.
  private var pending: [UInt64: (request: Request, timer: EventLoop.TimerID)] = [:]
  /// Requests not sent yet (no connection up), oldest first.
  private var unsent: [Request] = []
  private var retryTimer: EventLoop.TimerID?
  private var reading: EventLoop.ReadID?
  private var watching: EventLoop.ReadID?

  /// Polls `connection`'s socket on `loop` for replies, and its events (`watchLink()`) for a
  /// connection the broker closed.
  public init(connection: ControlConnection, loop: EventLoop) throws(ZeroMQError) {
    self.connection = connection
    self.loop = loop
    reading = loop.whenReadable(connection.socket) { [unowned self] in try takeReplies() }
    watching = loop.whenReadable(try connection.watchLink()) { [unowned self] in
      try readLink()
    }
  }

  /// How many requests are waiting for a reply or a connection.
  public var outstanding: Int { pending.count + unsent.count }

  /// Stops polling the connection and drops every request without running its completion,
  /// so the connection can be closed (replaced by a fresh one, or its session ended). Nothing
  /// more is sent.
  public func close() {
    if let reading { loop.stopReading(reading) }
    reading = nil
    if let watching { loop.stopReading(watching) }
    watching = nil
    connection.stopWatching()
    for (_, entry) in pending { loop.cancel(entry.timer) }
    pending.removeAll()
    unsent.removeAll()
    if let retryTimer { loop.cancel(retryTimer) }
    retryTimer = nil
  }

  /// Sends `body` (after the requests still waiting for a connection); `completion` runs on
  /// the loop with its reply or its failure, never before `send` returns.
  public func send(
    _ body: Tenfoot_V1_Envelope.OneOf_Body, timeout: Duration,
    _ completion: @escaping Completion
  ) {
    guard reading != nil else { return }
    unsent.append(Request(body: body, deadline: loop.now + timeout, completion: completion))
    if retryTimer == nil { sendWaiting() }
  }

  /// Sends what waits for a connection, in order; fails those past their deadline, and tries
  /// the rest again after `retryInterval`.
  private func sendWaiting() {
    retryTimer = nil
    while let request = unsent.first {
      let sent: UInt64?
      do throws(ControlError) {
        sent = try connection.send(request.body)
      } catch {
        unsent.removeFirst()
        fail(request, error)
        continue
      }
      guard let sent else {
        if request.deadline <= loop.now {
          unsent.removeFirst()
          fail(request, connection.noAnswer)
          continue
        }
        retryTimer = loop.schedule(after: Self.retryInterval) { [unowned self] in sendWaiting() }
        return
      }
      unsent.removeFirst()
      let timer = loop.schedule(at: request.deadline) { [unowned self] in
        try readLink()
        guard let expired = pending.removeValue(forKey: sent) else { return }
        try expired.request.completion(.failure(unanswered))
      }
      pending[sent] = (request, timer)
    }
  }

  /// Why a sent request got no reply: a refused handshake, else no answer.
  private var unanswered: ControlError {
    do throws(ControlError) {
      try connection.checkHandshake()
    } catch {
      return error
    }
    return connection.noAnswer
  }

  /// Reads the connection's events: when the one broker closed it, abandons what was sent.
  /// A zone's brokers are left to the deadlines: a standby closing says nothing of the
  /// active one the requests went to.
  private func readLink() throws(ControlError) {
    guard try connection.readLink(), Endpoints.list(connection.endpoint).count == 1 else {
      return
    }
    abandonSent()
  }

  /// Fails every sent request now, as unanswered: the one broker they went to closed its
  /// connection (it stopped or restarted), so no reply will come and a restarted broker does
  /// not know them. Waiting out their deadlines would hold back what is sent after them
  /// (inputs go one at a time: `InputSender`). Requests still waiting for a connection stay
  /// queued.
  public func abandonSent() {
    let abandoned = pending.sorted { $0.key < $1.key }
    pending.removeAll()
    let cause = unanswered
    for (_, entry) in abandoned {
      loop.cancel(entry.timer)
      fail(entry.request, cause)
    }
  }

  /// Fails `request` with `error` on the loop's next iteration.
  private func fail(_ request: Request, _ error: ControlError) {
    loop.schedule(after: .zero) { [weak self] in
      guard self?.reading != nil else { return }  // Closed meanwhile: dropped.
      try request.completion(.failure(error))
    }
  }

  /// Hands each queued reply to its request's completion; replies to requests that timed out
  /// (or to nobody) are dropped.
  private func takeReplies() throws {
    while let reply = try connection.nextReply() {
      guard let (request, timer) = pending.removeValue(forKey: reply.replyTo) else { continue }
      loop.cancel(timer)
      try request.completion(.success(reply.body))
    }
  }
}
