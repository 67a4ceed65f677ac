/// Wrong PINs counted where an attacker cannot reset them: per source address and in all,
/// saved across restarts, forgiven slowly. Pure data and rules; `PairingSession` applies them
/// and the runtime saves the value (the `saveGuard` effect) and loads it at start.
///
/// With 6-digit PINs, `totalLimit` wrong guesses before pairing closes give an online attacker
/// a chance of `totalLimit / 10^6` (1 in 100,000) per time pairing is opened again (by the
/// operator, or at a screen: `openedAtScreen`).
public struct PairingGuard: Sendable, Equatable, Codable {
  /// Wrong PINs from one address before it is refused (until one decays).
  public static let addressLimit = 5
  /// Wrong PINs in all before pairing closes until the operator opens it.
  public static let totalLimit = 10
  /// One failure (per address, and of the total) is forgiven per this long without another.
  public static let decay = Duration.seconds(3600)

  /// Wrong PINs per source address (addresses with none are not kept).
  public var byAddress: [String: Int] = [:]
  /// Wrong PINs in all since pairing last succeeded or was opened.
  public var totalFailures = 0
  /// Closed: every pairing request is refused until the operator opens it.
  public var closed = false

  /// No failures, open.
  public init() {}

  /// Counts a wrong PIN from `address`; closes at `totalLimit`.
  public mutating func fail(from address: String) {
    byAddress[address, default: 0] += 1
    totalFailures += 1
    if totalFailures >= Self.totalLimit { closed = true }
  }

  /// Forgives `steps` failures per address and of the total (a closed guard stays closed).
  public mutating func forgive(_ steps: Int) {
    guard steps > 0 else { return }
    totalFailures = max(0, totalFailures - steps)
    byAddress = byAddress.compactMapValues { count in count > steps ? count - steps : nil }
  }

  /// Open again, every count cleared (`tenfoot-broker pairing open`).
  public static let open = PairingGuard()

  /// Opened again by someone at a screen (`tenfoot-screen pairing open`): the total starts
  /// again, but every address keeps its count, so a guesser's address stays refused until its
  /// failures decay. An open guard stays as it is (a screen cannot reset the total early).
  public var openedAtScreen: PairingGuard {
    guard closed else { return self }
    var opened = self
    opened.closed = false
    opened.totalFailures = 0
    return opened
  }
}
