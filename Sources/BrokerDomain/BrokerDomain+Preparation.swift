import FocusEngine

/// Registrations prepared off the runtime's loop. Registering a layout of 100,000 items costs
/// tens of milliseconds (validation, the engine's index, the snapshot to publish); nearly all of
/// it depends only on the layout and on the session it replaces, not on the rest of the
/// broker. So the runtime takes a `RegistrationBase` (the screen's session and record as they
/// are: value copies that share storage, O(1)), lets `prepareRegistration` run the register
/// rule on it on another thread, and hands the result back to `handle(_:from:owners:at:)`,
/// which only checks and swaps.
///
/// The rule is the same in both paths: the preparation runs `register` itself, on a domain
/// that holds only the base. The apply checks access with the owners of the moment and uses
/// the prepared session only if the screen's session and record are still the base's (`==`:
/// O(1) while unchanged, as they share storage); if anything changed them in between (a press
/// on that screen, another registration, an expiry), it runs the full path on the session as
/// it is now, so the result is always what `handle(.register…)` would give at that point.
extension BrokerDomain {
  /// What a registration of `screen` depends on besides its own layout: the screen's session
  /// and durable record, and the domain's epoch and item limit.
  public struct RegistrationBase: Sendable, Equatable {
    /// The screen registered.
    public let screen: String
    let session: ScreenSession?
    let record: SessionRecord?
    let epoch: UInt64
    let maxItems: Int
  }

  /// A registration worked out on a `RegistrationBase`, off the loop.
  public struct PreparedRegistration: Sendable, Equatable {
    /// What it was worked out on.
    public let base: RegistrationBase
    /// The request as sent.
    public let layout: Layout
    public let app: Bool
    /// `register`'s outcome on the base (before the steps that depend on the broker's state
    /// now: access, liveness, persistence).
    let outcome: Outcome
    /// The session it leaves (nil: refused).
    let session: ScreenSession?

    /// The state the registration publishes, if it is accepted: the runtime may encode it
    /// off the loop too (it is published as is when the prepared result is applied).
    public var snapshot: SessionSnapshot? {
      for effect in outcome.effects {
        if case .publish(.snapshot(let snapshot)) = effect { return snapshot }
      }
      return nil
    }
  }

  /// What a registration of `screen` prepared now would be worked out on. O(1).
  public func registrationBase(for screen: String) -> RegistrationBase {
    RegistrationBase(
      screen: screen, session: sessions[screen], record: records[screen], epoch: epoch,
      maxItems: maxItems)
  }

  /// Works out the registration of `layout` on `base` at `now`: the `register` rule on a
  /// domain holding only the base. Pure; meant for another thread (it costs what `register`
  /// costs: validation and the engine's state for the whole layout).
  public static func prepareRegistration(
    _ layout: Layout, app: Bool, on base: RegistrationBase, at now: BrokerInstant
  ) -> PreparedRegistration {
    var scratch = BrokerDomain(
      epoch: base.epoch, name: "", maxItems: base.maxItems,
      records: base.record.map { [base.screen: $0] } ?? [:])
    if let session = base.session { scratch.sessions[base.screen] = session }
    let outcome = scratch.register(base.screen, layout, at: now)
    let session = outcome.reply.isAck ? scratch.sessions[base.screen] : nil
    return PreparedRegistration(
      base: base, layout: layout, app: app, outcome: outcome, session: session)
  }

  /// Applies a prepared registration from `principal` at `now`: the outcome
  /// `handle(.register(…), from:owners:at:)` gives now, and whether the prepared session was
  /// used (`prepared`; false: the screen's session or record changed since the base was taken,
  /// and the full path ran). Cheap when `prepared` is true: an access check, a comparison that
  /// shares storage, a swap.
  public mutating func handle(
    _ prepared: PreparedRegistration, from principal: Principal, owners: [String: String],
    at now: BrokerInstant
  ) -> (outcome: Outcome, prepared: Bool) {
    let screen = prepared.base.screen
    let request = BrokerRequest.register(screen: screen, layout: prepared.layout, app: prepared.app)
    guard prepared.base == registrationBase(for: screen) else {
      return (handle(request, from: principal, owners: owners, at: now), false)
    }
    let decision = access(request, from: principal, owners: owners)
    if case .forbidden(let refusal) = decision { return (.error(.forbidden(refusal)), true) }
    if batch != nil { willHandle(touching: screen) }
    var outcome = prepared.outcome
    if let session = prepared.session {
      sessions[screen] = session
      registered(screen, app: prepared.app, at: now)
      persistIfChanged(screen, &outcome)
    }
    authorized(&outcome, decision: decision, principal: principal, owners: owners)
    return (outcome, true)
  }
}

extension BrokerReply {
  /// Whether this is an acknowledgement.
  var isAck: Bool {
    if case .ack = self { true } else { false }
  }
}
