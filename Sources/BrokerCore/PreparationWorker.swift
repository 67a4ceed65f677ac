import BrokerDomain
import Foundation
import TenFootProtocol
import ZeroMQ

/// One thread that turns large control messages (a layout of thousands of items) into domain
/// requests off the broker's loop: it decodes the envelope, checks `InputLimits` and maps the
/// wire to a `BrokerRequest` (layouts and patches included). The loop hands it jobs with
/// `submit`, is woken through `waker` when one is done, and takes the results with
/// `takeFinished` in submission order; the domain then applies them on the loop.
///
/// A registration takes a second job: once it is next to apply, the loop hands back the mapped
/// request with the screen's session as it is then (`BrokerDomain.RegistrationBase`), and the
/// worker runs the domain's register rule on it and encodes the snapshot it publishes
/// (`BrokerDomain.prepareRegistration`); the loop then only checks and swaps.
///
/// Jobs run one at a time in submission order, so results come back in that order. The queue
/// is bounded by the loop (`PreparationLedger` counts the bytes in flight), not here.
final class PreparationWorker: @unchecked Sendable {
  // @unchecked Sendable: `jobs`, `finished`, `stopped` and `started` are only touched under `condition`;
  // everything else is immutable.

  /// A message to prepare.
  struct Job: Sendable {
    /// The ledger's number for it.
    var id: UInt64
    /// The connection it came from (its ROUTER identity).
    var peer: [UInt8]
    /// What to do.
    var work: Work
    /// Who sent it (checked on the loop before submitting, and again before applying).
    var access: PeerAccess
    var principal: Principal
  }

  /// A job's work.
  enum Work: Sendable {
    /// Decode, check and map an encoded envelope.
    case decode([UInt8])
    /// Work out a mapped registration (`prepared`'s request) on `base` at `time`.
    case register(Prepared, base: BrokerDomain.RegistrationBase, at: BrokerInstant)
  }

  /// A domain request, or the error a message is answered with instead.
  enum Mapped: Sendable {
    case request(BrokerRequest)
    case refused(Tenfoot_V1_Error)
    /// A registration worked out on the session as it was, with the encoded `ScreenState` of
    /// the snapshot it publishes (nil: it publishes none).
    case registration(BrokerDomain.PreparedRegistration, snapshot: [UInt8]?)
  }

  /// What preparing a job produced.
  struct Prepared: Sendable {
    /// The job's number.
    var id: UInt64
    /// The job's connection and sender.
    var peer: [UInt8]
    var access: PeerAccess
    var principal: Principal
    /// The request's `seq` (0 if it could not be decoded), to answer it.
    var seq: UInt64
    /// The envelope's sender and body name, for log lines.
    var sender: String
    var bodyName: String
    /// The domain request, or the error the request is answered with.
    var result: Mapped
    /// An input's envelope, kept: inputs are served through the group commit's press ledger.
    var input: Tenfoot_V1_Envelope?
  }

  private let condition = NSCondition()
  private var jobs: [Job] = []
  private var finished: [Prepared] = []
  private var stopped = false
  private var started = false
  private let waker: Waker

  /// A worker whose thread starts with the first job; `waker` wakes the loop when a result is
  /// ready.
  init(waker: Waker) {
    self.waker = waker
  }

  /// Queues a job (called on the loop).
  func submit(_ job: Job) {
    condition.lock()
    if !started, !stopped {
      started = true
      // The thread keeps the worker alive until `stop()` ends it.
      let thread = Thread { [self] in work() }
      thread.name = "tenfoot-broker-prepare"
      thread.start()
    }
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  /// The results ready so far, in submission order (called on the loop).
  func takeFinished() -> [Prepared] {
    condition.lock()
    defer { condition.unlock() }
    let taken = finished
    finished = []
    return taken
  }

  /// Ends the thread after the job in hand; queued jobs are dropped.
  func stop() {
    condition.lock()
    stopped = true
    jobs = []
    condition.signal()
    condition.unlock()
  }

  private func work() {
    while let job = nextJob() {
      let prepared = Self.prepare(job)
      condition.lock()
      let keep = !stopped
      if keep { finished.append(prepared) }
      condition.unlock()
      if keep { waker.wake() }
    }
  }

  private func nextJob() -> Job? {
    condition.lock()
    defer { condition.unlock() }
    while jobs.isEmpty, !stopped { condition.wait() }
    return stopped ? nil : jobs.removeFirst()
  }

  /// Does one job.
  static func prepare(_ job: Job) -> Prepared {
    switch job.work {
    case .decode(let frame): return decode(frame, job)
    case .register(let prepared, let base, let time): return register(prepared, on: base, at: time)
    }
  }

  /// Works out a mapped registration on `base` and encodes the snapshot it publishes.
  static func register(
    _ mapped: Prepared, on base: BrokerDomain.RegistrationBase, at time: BrokerInstant
  ) -> Prepared {
    guard case .request(.register(_, let layout, let app)) = mapped.result else { return mapped }
    let registration = BrokerDomain.prepareRegistration(layout, app: app, on: base, at: time)
    // Serializing a message built in memory fails only for proto2 required fields (none in
    // proto3); without bytes the loop encodes the snapshot itself.
    let snapshot: [UInt8]? = registration.snapshot.flatMap {
      try? Tenfoot_V1_ScreenState($0).serializedBytes()
    }
    var prepared = mapped
    prepared.result = .registration(registration, snapshot: snapshot)
    return prepared
  }

  /// Decodes, checks and maps one message: the pure part of serving it, the same checks in the
  /// same order as `Broker.serve` makes on the loop for small messages.
  static func decode(_ frame: [UInt8], _ job: Job) -> Prepared {
    let envelope: Tenfoot_V1_Envelope
    do {
      envelope = try Tenfoot_V1_Envelope.decode(frame)
    } catch {
      return Prepared(
        id: job.id, peer: job.peer, access: job.access, principal: job.principal, seq: 0,
        sender: "", bodyName: "malformed",
        result: .refused(Tenfoot_V1_Error(.malformed, error.description)))
    }
    var prepared = Prepared(
      id: job.id, peer: job.peer, access: job.access, principal: job.principal,
      seq: envelope.seq, sender: envelope.sender, bodyName: envelope.bodyName,
      result: .refused(Tenfoot_V1_Error(.malformed, "")))
    if case .input = envelope.body { prepared.input = envelope }
    if let problem = InputLimits.problem(envelope) {
      prepared.result = .refused(problem)
      return prepared
    }
    do {
      let request = try BrokerRequest(
        wire: envelope, peer: job.peer, sender: WireBroker.sender(of: job.principal))
      prepared.result = .request(request)
    } catch {
      prepared.result = .refused(Tenfoot_V1_Error(error))
    }
    return prepared
  }

  /// The `seq` of an encoded envelope, read without decoding it (so a refused large message
  /// costs no decode): the top-level fields before it are scanned, 0 if it is not found in
  /// the first 64 bytes. Envelope fields are written in field-number order, `seq` is field 3.
  static func peekSeq(_ frame: [UInt8]) -> UInt64 {
    TopLevelFields.first(in: frame, before: 64) { number, wireType, value in
      number == 3 && wireType == 0 ? value : nil
    } ?? 0
  }
}
