import BrokerDomain
import TenFootProtocol

extension Broker {
  /// Serves `open_pairing` beside the domain's requests: pairing is the security runtime's
  /// (`PairingSession.openAtScreen` decides, from the allow-list's owners and the sessions
  /// registered now). Its prompt goes out before the reply, and a refusal is logged like any
  /// other (`finish`).
  func openPairing(
    _ request: Tenfoot_V1_OpenPairing, peer: [UInt8], seq: UInt64, principal: Principal
  ) {
    var outcome = WireBroker.Outcome(
      reply: .error(
        .init(.unexpectedMessage, "this broker has no pairing (no CURVE keys): nothing to open")))
    if let security {
      var outgoing: [(topic: String, publication: OutgoingPublication)] = []
      outcome.reply = security.openPairing(
        at: request.screenID, by: principal, registered: Array(core.domain.sessions.keys)
      ) { topic, body in outgoing.append((topic, .body(body))) }
      outcome.outgoing = outgoing
    }
    finish(
      outcome, peer: peer, seq: seq, sender: principal.id, request: "open_pairing",
      principal: principal)
  }
}
