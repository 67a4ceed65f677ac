import Foundation
import TenFootClient
import TenFootProtocol

extension RemoteClient {
  /// Sends `input`; given a zone's brokers (several endpoints), a request that timed out (the
  /// active broker died, or is paused, and a standby takes over), or that the new active
  /// broker answered with an unknown screen, is sent again with the same press id (the zone's
  /// store applies it at most once), for at most `zoneScreenWait`. One broker: sent once, as a
  /// broker without a zone store does not deduplicate.
  func requestRetryingInZone(_ input: Tenfoot_V1_Input) throws(ControlError)
    -> Tenfoot_V1_Envelope.OneOf_Body
  {
    let zone = Endpoints.list(connection.endpoint).count > 1 && !input.pressID.isEmpty
    guard zone else { return try connection.request(.input(input), timeout: timeout) }
    // A takeover: the new active broker may not know the screen until it registers again.
    // The same press id is sent again (applied at most once) once its registration is
    // published, bounded; the first retry goes as soon as the subscription is made (the
    // registration may have come in between), later ones wait for a publication or 250 ms (a
    // subscription not in place yet).
    let deadline = ContinuousClock.now + Self.zoneScreenWait
    var waiter: ScreenWaiter?
    while true {
      let reply: Tenfoot_V1_Envelope.OneOf_Body
      do {
        reply = try connection.request(.input(input), timeout: timeout)
      } catch  where error.isNoAnswer && ContinuousClock.now < deadline {
        continue
      }
      guard case .error(let error) = reply,
        [.unknownScreen, .screenGone].contains(error.code),
        ContinuousClock.now < deadline
      else { return reply }
      if let waiter {
        try? waiter.awaitRegistration(until: min(deadline, .now + .milliseconds(250)))
      } else {
        guard let made = makeScreenWaiter() else { return reply }
        waiter = made
      }
    }
  }
}

enum PressID {
  static func next() -> String {
    UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
  }
}
