import BrokerDomain
import TenFootSecurity
import ZeroMQ

/// The ZAP decision, pure: which CURVE clients the broker lets in.
///
/// A key on the allow-list is admitted with `User-Id` `peer:<the whole key in hex>` on the
/// control and state sockets: the broker knows each message's sender by its key, never by a
/// name the message gives. Everyone else is refused with status 400, which the client sees as
/// `ZMQ_EVENT_HANDSHAKE_FAILED_AUTH` ("not paired"). Unknown keys never reach the control
/// socket: pairing happens on a separate socket that speaks nothing but pairing.
public enum ZapPolicy {
  /// The ZAP domain of the control socket.
  public static let domain = "tenfoot"
  /// The ZAP domain of the state socket: the same policy, told apart so the broker knows
  /// which peers subscribe (and must be cut off when revoked).
  public static let stateDomain = "tenfoot.state"
  /// The reason given to a key refused while in quarantine.
  public static let quarantinedText = "quarantined"
  /// A ZAP request's fields (RFC 27), credentials for CURVE being the 32-byte client key.
  public struct Request: Sendable, Equatable {
    /// The request id to echo.
    public var requestID: [UInt8]
    /// The socket's ZAP domain.
    public var domain: String
    /// The peer's address.
    public var address: String
    /// The peer's routing id (ZMQ_ROUTING_ID of the client), possibly empty.
    public var routingID: [UInt8]
    /// "NULL", "PLAIN" or "CURVE".
    public var mechanism: String
    /// The credential frames.
    public var credentials: [[UInt8]]

    /// Parses the frames of a ZAP request; nil if they are not one.
    public init?(frames: [[UInt8]]) {
      guard frames.count >= 6, frames[0] == Array("1.0".utf8) else { return nil }
      requestID = frames[1]
      domain = String(decoding: frames[2], as: UTF8.self)
      address = String(decoding: frames[3], as: UTF8.self)
      routingID = frames[4]
      mechanism = String(decoding: frames[5], as: UTF8.self)
      credentials = Array(frames.dropFirst(6))
    }
  }

  /// The reply: status code, text for logs, and `User-Id` on success.
  public struct Decision: Sendable, Equatable {
    /// "200" admits; "400" refuses.
    public var status: String
    /// Why.
    public var text: String
    /// The identity the broker sees on each message.
    public var userID: String

    /// The reply frames for request id `requestID`.
    public func frames(requestID: [UInt8]) -> [[UInt8]] {
      [Array("1.0".utf8), requestID, Array(status.utf8), Array(text.utf8), Array(userID.utf8), []]
    }

    /// Whether the peer is admitted.
    public var admitted: Bool { status == "200" }
  }

  /// Decides one request against the allow-list.
  public static func decide(_ request: Request, allowList: AllowList) -> Decision {
    guard request.mechanism == "CURVE", let key = request.credentials.first, key.count == 32,
      let publicKey = Z85.encode(key)
    else {
      return Decision(status: "400", text: "CURVE required", userID: "")
    }
    if let entry = allowList.entry(publicKey: publicKey) {
      return Decision(status: "200", text: "OK", userID: PeerAccess.peer(id: entry.keyHex).userID)
    }
    return Decision(status: "400", text: "not paired", userID: "")
  }

  /// Decides one request against the allow-list and the keys in quarantine: a quarantined key
  /// is refused on the control socket (status 400, "quarantined") until its quarantine ends
  /// at `now`; on the state socket it stays welcome (a subscriber sends only small topics).
  public static func decide(
    _ request: Request, allowList: AllowList, quarantine: PeerQuarantine, at now: BrokerInstant
  ) -> Decision {
    let decision = decide(request, allowList: allowList)
    guard decision.admitted, request.domain != stateDomain, !quarantine.isEmpty,
      quarantine.isQuarantined(decision.userID, at: now)
    else { return decision }
    return Decision(status: "400", text: quarantinedText, userID: "")
  }
}
