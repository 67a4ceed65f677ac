import TenFootSecurity

extension PairingClient {
  /// Pairs this remote with the broker at `controlEndpoint` through `dialogue`: starts a
  /// pairing (every screen shows a PIN), refuses a broker whose key differs from the one
  /// pinned for `controlEndpoint` before any PIN is typed (unless `replacingPinnedKey`), runs
  /// the dialogue, and pins the broker's key once it proved it knew the PIN. Returns the
  /// allow-list id, or nil when the input ended before a PIN was accepted.
  public func pair(
    controlEndpoint: String, replacingPinnedKey: Bool, dialogue: PinDialogue
  ) throws -> String? {
    let challenge = try begin()
    if !replacingPinnedKey, let pinned = try trust.pinnedKey(for: controlEndpoint),
      pinned != challenge.brokerKeyText
    {
      throw TrustError.keyChanged(
        endpoint: controlEndpoint, pinned: pinned, presented: challenge.brokerKeyText)
    }
    // Every attempt after the first asks for a fresh round (same PIN, new nonces and shares):
    // a round answers one PIN.
    var round: Challenge? = challenge
    let id = try dialogue.run(
      digits: challenge.digits, brokerID: AllowList.id(of: challenge.brokerKeyText)
    ) { pin throws(PairingError) in
      let current: Challenge
      do throws(PairingError) {
        if let first = round { current = first } else { current = try nextRound() }
      } catch {
        // Still backing off: the dialogue waits and asks again, as after a wrong PIN.
        guard case .refused(let refusal) = error, refusal.code == .pairingBackoff else {
          throw error
        }
        return .refused(message: refusal.message, retryAfter: refusal.retryAfter)
      }
      round = nil
      guard current.brokerKey == challenge.brokerKey else {
        throw PairingError.unusableChallenge
      }
      return try attempt(pin: pin, challenge: current)
    }
    guard let id else { return nil }
    try trust.pin(challenge.brokerKeyText, for: controlEndpoint, replace: replacingPinnedKey)
    return id
  }
}
