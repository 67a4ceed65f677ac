import BrokerDomain
import TenFootProtocol

/// The broker's hottest request, a press or a release from a remote, served straight from its
/// frame's bytes when they are a key input in the usual shape (`KeyInputFrame`): the same
/// steps as the generic path in `serve(_:access:)` (limits, the domain's request, `finish`),
/// over plain values instead of the generated `Envelope` and `Input`. Anything else takes the
/// generic path unchanged.
///
/// Why by hand: per key input the generic path cost about 9,000 instructions before the domain
/// (the decoded envelope about 5,100, the limits check 1,700, the mapping to the domain's
/// request 2,200) of some 52,000 in `serve` (callgrind, `scripts/bench-instructions`, a 1x2
/// grid); with the lane `serve` takes 44,266 against 51,775. `KeyInputLaneTests` holds the two
/// paths to the same refusals, requests, replies and publications on random and mutated
/// frames, with and without a CURVE principal.
extension Broker {
  /// The name of a key input's request in `finish` and the logs (`Envelope.name(of:)`).
  static let keyInputName = "input"

  /// Serves a key input from `peer`, sent by `principal`: answered with its limits problem if
  /// it has one, else handled by the domain (in the group commit, when there is one).
  func serve(_ input: KeyInputFrame, peer: [UInt8], principal: Principal) {
    if let problem = InputLimits.problem(input) {
      logRefusal(problem, sender: input.sender, request: Self.keyInputName)
      reply(to: peer, replyTo: input.seq, body: .error(problem))
      return
    }
    let owners = security?.owners ?? [:]
    let outcome =
      if let group {
        group.handle(
          input, peer: peer, principal: principal, owners: owners, core: &core, at: now())
      } else {
        core.handle(input, peer: peer, principal: principal, owners: owners, press: nil, at: now())
      }
    finish(
      outcome, peer: peer, seq: input.seq, sender: input.sender, request: Self.keyInputName,
      principal: principal)
  }
}
