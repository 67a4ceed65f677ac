import Testing

@testable import TenFootSecurity

/// CPace (CPACE-RISTR255-SHA512) against the test vectors of draft-irtf-cfrg-cpace-21,
/// appendices A.1–A.3 (string functions) and B.3 (ristretto255 with SHA-512), then two
/// parties with the same and with different PINs.
@Suite("CPace over ristretto255")
struct CPaceTests {
  /// Bytes from hex digits (whitespace ignored); a bad digit becomes 0xEE, so a typo in a
  /// vector fails the comparison instead of crashing.
  static func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count, by: 2).map {
      UInt8(String(digits[$0...$0 + 1]), radix: 16) ?? 0xEE
    }
  }

  // B.3 inputs.
  static let prs = Array("Password".utf8)
  static let ci = hex("0b415f696e69746961746f720b425f726573706f6e646572")
  static let sid = hex("7e4b4791d6a8ef019b936c79fb7f2c57")
  static let ya = hex("da3d23700a9e5699258aef94dc060dfda5ebb61f02a5ea77fad53f4ff0976d08")
  static let yb = hex("d2316b454718c35362d83d69df6320f38578ed5984651435e2949762d900b80d")
  static let adA = Array("ADa".utf8)
  static let adB = Array("ADb".utf8)

  @Test("prepend_len and lv_cat (A.1)")
  func stringFunctions() {
    #expect(CPace.prependLength([]) == Self.hex("00"))
    #expect(CPace.prependLength(Array("1234".utf8)) == Self.hex("0431323334"))
    #expect(
      CPace.prependLength((0..<127).map { UInt8($0) }) == [0x7F] + (0..<127).map { UInt8($0) })
    #expect(
      CPace.prependLength((0..<128).map { UInt8($0) }) == [0x80, 0x01] + (0..<128).map { UInt8($0) }
    )
    #expect(
      CPace.lvCat(Array("1234".utf8), Array("5".utf8), [], Array("678".utf8))
        == Self.hex("043132333401350003363738"))
  }

  @Test("transcript_ir (A.3.5)")
  func transcript() {
    let one = CPace.transcript(
      shareA: Array("123".utf8), dataA: Array("PartyA".utf8), shareB: Array("234".utf8),
      dataB: Array("PartyB".utf8))
    #expect(one == Self.hex("03313233065061727479410332333406506172747942"))
  }

  @Test("generator, shares, K and ISK (B.3)")
  func ristrettoVectors() throws {
    let generator = CPace.generator(prs: Self.prs, ci: Self.ci, sid: Self.sid)
    #expect(
      generator == Self.hex("222b6b195fe84b1652badb6f6a3ae3d24341e7306967f0b8115b40d5698c7e56"))
    let shareA = try #require(CPace.scalarMultiply(Self.ya, generator))
    let shareB = try #require(CPace.scalarMultiply(Self.yb, generator))
    #expect(shareA == Self.hex("d6bac480f2c386c394efc7c47adb9925dcd2630b64f240c50f8d0eec482b9157"))
    #expect(shareB == Self.hex("3ea7e0b19560d7c0b0f5734f63b955286dfa8232b5ebe63324e2d9e7433f7258"))
    let k = Self.hex("80b69a8a76457ab6a4d7f887a4bf6b55a2f80ac19c333f917a05fc9887c8b40f")
    #expect(CPace.scalarMultiply(Self.ya, shareB) == k)
    #expect(CPace.scalarMultiply(Self.yb, shareA) == k)
    let isk = Self.hex(
      """
      b69effbf61b51d56401c0f65601abe428de8206feaaf0e32198896dcae7b35cd2b38950a39dfd5d4a791646
      14c2984f7daa460b588c1e80c3fa2068af7900447
      """)
    let transcript = CPace.transcript(
      shareA: shareA, dataA: Self.adA, shareB: shareB, dataB: Self.adB)
    #expect(CPace.intermediateKey(sid: Self.sid, k: k, transcript: transcript) == isk)

    let a = CPaceParty(
      role: .initiator, prs: Self.prs, ci: Self.ci, sid: Self.sid, associatedData: Self.adA,
      scalar: Self.ya)
    let b = CPaceParty(
      role: .responder, prs: Self.prs, ci: Self.ci, sid: Self.sid, associatedData: Self.adB,
      scalar: Self.yb)
    #expect(a.finish(peerShare: b.share, peerData: Self.adB)?.isk == isk)
    #expect(b.finish(peerShare: a.share, peerData: Self.adA)?.isk == isk)
  }

  @Test("scalar_mult_vfy: a valid point, and the invalid ones that abort (B.3.10, B.3.11)")
  func scalarMultVerify() {
    let s = Self.hex("7cd0e075fa7955ba52c02759a6c90dbbfc10e6d40aea8d283e407d88cf538a05")
    let x = Self.hex("2c3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c")
    #expect(
      CPace.scalarMultiply(s, x)
        == Self.hex("7c13645fe790a468f62c39beb7388e541d8405d1ade69d1778c5fe3e7f6b600e"))
    let invalid = Self.hex("2b3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c")
    #expect(CPace.scalarMultiply(s, invalid) == nil)
    #expect(CPace.scalarMultiply(s, [UInt8](repeating: 0, count: 32)) == nil)
    let party = CPaceParty(
      role: .initiator, prs: Self.prs, ci: Self.ci, sid: Self.sid, associatedData: Self.adA)
    #expect(party.finish(peerShare: invalid, peerData: Self.adB) == nil)
    #expect(party.finish(peerShare: [UInt8](repeating: 0, count: 32), peerData: Self.adB) == nil)
  }

  func run(pinA: String, pinB: String) -> (CPaceParty.Keys?, CPaceParty.Keys?) {
    let a = CPaceParty(
      role: .initiator, prs: Array(pinA.utf8), ci: Self.ci, sid: Self.sid,
      associatedData: Self.adA)
    let b = CPaceParty(
      role: .responder, prs: Array(pinB.utf8), ci: Self.ci, sid: Self.sid,
      associatedData: Self.adB)
    return (
      a.finish(peerShare: b.share, peerData: Self.adB),
      b.finish(peerShare: a.share, peerData: Self.adA)
    )
  }

  @Test("the same PIN agrees, with fresh scalars, and the tags cross-check")
  func samePIN() throws {
    let (a, b) = run(pinA: "0427", pinB: "0427")
    let keysA = try #require(a)
    let keysB = try #require(b)
    #expect(keysA.isk == keysB.isk)
    #expect(keysA.ownTag == keysB.peerTag)
    #expect(keysB.ownTag == keysA.peerTag)
    #expect(keysA.ownTag != keysA.peerTag)
  }

  @Test("different PINs disagree: keys and tags")
  func differentPIN() throws {
    let (a, b) = run(pinA: "0427", pinB: "0428")
    let keysA = try #require(a)
    let keysB = try #require(b)
    #expect(keysA.isk != keysB.isk)
    #expect(keysA.ownTag != keysB.peerTag)
    #expect(keysB.ownTag != keysA.peerTag)
  }

  /// One TenFoot pairing round with fixed inputs (PIN 0427, broker key bytes 1…32, remote key
  /// 33…64, nonces 0xB0… and 0xC0…, the B.3 scalars); python/tests/test_cpace.py checks the
  /// same values with the Python implementation, so the two agree byte for byte.
  @Test("a fixed pairing round gives the values the Python client's test expects")
  func pairingRoundSharedWithPython() throws {
    let brokerKey = (1...32).map { UInt8($0) }
    let remoteKey = (33...64).map { UInt8($0) }
    let brokerNonce = [UInt8](repeating: 0xB0, count: 32)
    let remoteNonce = [UInt8](repeating: 0xC0, count: 32)
    let broker = PairingProof.broker(
      pin: "0427", brokerKey: brokerKey, remoteKey: remoteKey, brokerNonce: brokerNonce,
      remoteNonce: remoteNonce, secret: Self.ya)
    let remote = CPaceParty(
      role: .responder, prs: Array("0427".utf8),
      ci: PairingProof.channel(brokerKey: brokerKey, remoteKey: remoteKey),
      sid: brokerNonce + remoteNonce, associatedData: PairingProof.remoteData, scalar: Self.yb)
    #expect(
      broker.share == Self.hex("be30bb02c7b934d99962e4511858913c818a7e540ca564871c626fa16795dc62"))
    #expect(
      remote.share == Self.hex("aa317485d23d74a1a54f5ef9092ce4ca496b5746cd3be792de4634a65d81692e"))
    let keys = try #require(
      remote.finish(peerShare: broker.share, peerData: PairingProof.brokerData))
    #expect(
      keys.isk
        == Self.hex(
          """
          73a5c025cb06d0c0c798f00a386f58fce5089cbcd63b71a6b10716aa5b0e5cc4
          0f983351e319c335bf7cce7c58f13a4b8dd0ee0ce631d24d2f014adc50a0e372
          """))
    #expect(
      keys.peerTag
        == Self.hex(
          """
          4c905f458392d22a7a5c9fe58ad015f97eca5dc4cef96e1d61f958bab3d78a24
          fc8945e035be73adcf00e44c7770ef55c701b589f8dc0a31abf89807b9c58ad9
          """))
    #expect(
      keys.ownTag
        == Self.hex(
          """
          1445ac1d2c202de6e4d67a3aa8390a6906dfddd5257f4047fbaa7894b3b67137
          4c6b068b6a86eb4c0b7dd212ca067ce94bcd1c07082127df83267c782214ac59
          """))
    #expect(
      PairingProof.brokerConfirms(broker, remoteShare: remote.share, tag: keys.ownTag)
        == keys.peerTag)
  }
}
