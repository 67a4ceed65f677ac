import BrokerCore
import BrokerDomain
import TenFootSecurity
import Testing
import ZeroMQ

@Suite("ZAP policy")
struct ZapPolicyTests {
  func request(
    mechanism: String = "CURVE", key: [UInt8], domain: String = ZapPolicy.domain
  ) -> ZapPolicy.Request? {
    ZapPolicy.Request(frames: [
      Array("1.0".utf8), Array("7".utf8), Array(domain.utf8), Array("10.0.0.2".utf8),
      [], Array(mechanism.utf8), key,
    ])
  }

  @Test(
    "allow-listed keys get peer:<whole key>; unknown keys, other mechanisms and junk are refused")
  func decisions() throws {
    let pair = try CurveKeyPair.generate()
    let key = try #require(Z85.decode(pair.publicKey))
    var list = AllowList()
    list.allow(.init(publicKey: pair.publicKey, name: "tv", role: .screen, added: 0))
    let admitted = ZapPolicy.decide(try #require(request(key: key)), allowList: list)
    #expect(admitted.admitted)
    #expect(admitted.userID == "peer:\(Hex.encode(key))")
    #expect(PeerAccess(userID: admitted.userID) == .peer(id: Hex.encode(key)))
    #expect(admitted.frames(requestID: Array("7".utf8))[2] == Array("200".utf8))

    let stranger = [UInt8](repeating: 3, count: 32)
    let refused = ZapPolicy.decide(try #require(request(key: stranger)), allowList: list)
    #expect(!refused.admitted && refused.status == "400")
    #expect(
      !ZapPolicy.decide(try #require(request(mechanism: "NULL", key: [])), allowList: list).admitted
    )
    #expect(!ZapPolicy.decide(try #require(request(key: [1, 2, 3])), allowList: list).admitted)
    #expect(ZapPolicy.Request(frames: [Array("2.0".utf8)]) == nil)
    #expect(PeerAccess(userID: nil) == .local && PeerAccess(userID: "") == .local)
  }

  @Test("a quarantined key is refused on control until its quarantine ends; state still admits it")
  func quarantined() throws {
    let pair = try CurveKeyPair.generate()
    let key = try #require(Z85.decode(pair.publicKey))
    var list = AllowList()
    list.allow(.init(publicKey: pair.publicKey, name: "tv", role: .screen, added: 0))
    var quarantine = PeerQuarantine(
      policy: .init(margin: 10, window: .seconds(10), duration: .seconds(60)))
    let start = BrokerInstant(sinceOrigin: .seconds(1))
    let userID = "peer:\(Hex.encode(key))"
    _ = quarantine.overBudget(userID, bytes: 11, at: start)
    let control = try #require(request(key: key))
    let state = try #require(request(key: key, domain: ZapPolicy.stateDomain))
    let during = ZapPolicy.decide(control, allowList: list, quarantine: quarantine, at: start)
    #expect(!during.admitted && during.status == "400" && during.text == "quarantined")
    #expect(ZapPolicy.decide(state, allowList: list, quarantine: quarantine, at: start).admitted)
    let after = ZapPolicy.decide(
      control, allowList: list, quarantine: quarantine, at: start + .seconds(60))
    #expect(after.admitted && after.userID == userID)
  }
}
