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
    do {
      return try connection.request(.input(input), timeout: timeout)
    } catch  where zone && error.isNoAnswer {
      return try connection.request(.input(input), timeout: timeout)
    }
  }
}

/// Press ids: random, 32 hexadecimal digits (an item id's characters).
enum PressID {
  static func next() -> String {
    UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
  }
}
