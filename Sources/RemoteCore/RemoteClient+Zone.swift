import Foundation
import TenFootClient
import TenFootProtocol

extension RemoteClient {
  /// Sends `input`; given a zone's brokers (several endpoints), a request that timed out (the
  /// active broker died, or is paused, and a standby takes over) is sent once more with the
  /// same press id, which the zone's store applies at most once. One broker: sent once, as a
  /// broker without a zone store does not deduplicate.
  func requestRetryingInZone(_ input: Tenfoot_V1_Input) throws(ControlError)
    -> Tenfoot_V1_Envelope.OneOf_Body
  {
    let zone = Endpoints.list(connection.endpoint).count > 1 && !input.pressID.isEmpty
    guard zone else { return try connection.request(.input(input), timeout: timeout) }
    // A takeover: the new active broker may not know the screen until it registers again.
    // The same press id is sent again (applied at most once) until it does, bounded.
    let deadline = ContinuousClock.now + Self.zoneScreenWait
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
      Thread.sleep(forTimeInterval: 0.05)
    }
  }
}

enum PressID {
  static func next() -> String {
    UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
  }
}
