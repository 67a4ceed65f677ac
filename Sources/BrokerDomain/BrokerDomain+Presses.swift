/// A press id (`Input.press_id`) on a broker whose store deduplicates them (a zone's), with
/// what the store knows of it: the runtime reads that from the store and passes it in as data.
public struct Press: Sendable, Equatable {
  /// The id the remote gave the press.
  public var id: String
  /// Whether the id was applied already: by this broker (earlier in the same batch too, as
  /// the store counts ids it is about to record) or by an earlier term's.
  public var applied: Bool

  /// A press id and whether it was applied.
  public init(id: String, applied: Bool) {
    self.id = id
    self.applied = applied
  }
}

extension BrokerDomain {
  /// Handles `request` (an input) carrying the press id `press`, at most once: a press applied
  /// already is not applied again and is answered with its session as it is (sequence and
  /// focused item; nothing published), and one that the domain applies (its reply is not a
  /// refusal) names its id in `recordedPress`, for the store to record with the changes it
  /// made. A repeat is answered before the access check, as the press it repeats was.
  public mutating func handle(
    _ request: BrokerRequest, press: Press, from principal: Principal,
    owners: [String: String], at now: BrokerInstant
  ) -> Outcome {
    guard !press.applied else { return repeated(request) }
    var outcome = handle(request, from: principal, owners: owners, at: now)
    if case .error = outcome.reply { return outcome }
    outcome.recordedPress = press.id
    return outcome
  }

  /// The answer to a press applied already: its session's sequence and focused item, or an
  /// empty acknowledgement if it names no session (any more).
  private mutating func repeated(_ request: BrokerRequest) -> Outcome {
    let screen = screen(of: request)
    // Tagged with its screen, so a failed batch refuses it like the press it repeats.
    willHandle(touching: screen)
    guard let screen, let session = sessions[screen] else {
      return Outcome(reply: .ack(Acknowledgement(screen: "", seq: 0, focused: nil)))
    }
    return Outcome(
      reply: .ack(Acknowledgement(screen: screen, seq: session.seq, focused: session.focus.focused))
    )
  }
}
