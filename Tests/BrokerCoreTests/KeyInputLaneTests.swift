import BrokerDomain
import FocusEngine
import TenFootProtocol
import TestSupport
import Testing

@testable import BrokerCore

/// A key input in the usual shape is served straight from its frame's bytes
/// (`Broker+KeyInput.swift`, `KeyInputFrame`): whatever the frame, the lane must take it
/// exactly when the hand decoder would, and then give `finish` and the logs what the generic
/// path gives them (seq, sender, request name), refuse it with the same limits error, hand the
/// domain the same request (or refuse it as the mapping does) and so produce the same reply and
/// publications, with and without a CURVE principal in place of the sender.
@Suite("Key inputs served straight from their frames match the generic path")
struct KeyInputLaneTests {
  /// What serving a request decided before and around the domain, on either path.
  struct Served: Equatable {
    var seq: UInt64
    var sender: String
    var name: String
    var pressID: String
    var problem: Tenfoot_V1_Error?
    var request: Result<BrokerRequest, ControlRefusal>?
  }

  /// The generic path: the envelope decoded, its body read, limits, then the wire mapping.
  static func generic(_ envelope: Tenfoot_V1_Envelope, peer: [UInt8], principal: Principal)
    -> Served
  {
    let body = envelope.body
    let problem = InputLimits.problem(envelope, body: body)
    var pressID = ""
    if case .input(let input) = body { pressID = input.pressID }
    return Served(
      seq: envelope.seq, sender: envelope.sender, name: Tenfoot_V1_Envelope.name(of: body),
      pressID: pressID, problem: problem,
      request: problem != nil
        ? nil
        : Result { () throws(ControlRefusal) in
          try BrokerRequest(
            wire: envelope, body: body, peer: peer, sender: WireBroker.sender(of: principal))
        })
  }

  /// The lane: the frame's fields, `InputLimits.problem(_:)` and `BrokerRequest(keyInput:)`.
  static func lane(_ input: KeyInputFrame, peer: [UInt8], principal: Principal) -> Served {
    let problem = InputLimits.problem(input)
    return Served(
      seq: input.seq, sender: input.sender, name: Broker.keyInputName, pressID: input.pressID,
      problem: problem,
      request: problem != nil
        ? nil
        : Result { () throws(ControlRefusal) in
          try BrokerRequest(
            keyInput: input, peer: peer, sender: WireBroker.sender(of: principal))
        })
  }

  static let remote = Principal(id: "remote:k7", key: "ab12", role: .remote)

  /// Random key inputs, many of them over a limit: long or bad ids, unknown keys and phases,
  /// another protocol version.
  struct Samples {
    var random: SplitMix64

    mutating func chance(_ percent: Int = 50) -> Bool { random.below(100) < percent }
    mutating func pick<T>(_ values: [T]) -> T { values[random.below(values.count)] }

    mutating func uint64() -> UInt64 {
      chance(20)
        ? pick([0, 1, 127, 128, 1 << 35, .max]) : random.next() >> UInt64(random.below(64))
    }

    mutating func id(maximum: Int) -> String {
      switch random.below(8) {
      case 0: ""
      case 1: String(repeating: "x", count: maximum + pick([-1, 0, 1, 40]))
      case 2: pick(["bad id", "tab\there", "é📺", "\u{0}", "a#3", "room\u{85}"])
      default: pick(["living-room", "remote:bench", "home/rail-3", "p-\(random.below(1000))"])
      }
    }

    mutating func frame() throws -> [UInt8] {
      var key = Tenfoot_V1_KeyEvent()
      if chance(90) {
        key.key = chance(80) ? pick(Tenfoot_V1_Key.allCases) : .UNRECOGNIZED(pick([99, 1000]))
      }
      if chance(90) {
        key.phase =
          chance(80) ? pick(Tenfoot_V1_KeyPhase.allCases) : .UNRECOGNIZED(pick([7, 300]))
      }
      if chance(80) { key.timestampNs = uint64() }
      var input = Tenfoot_V1_Input()
      if chance(80) {
        input.screenID = chance(50) ? "living-room" : id(maximum: ScreenID.maxLength)
      }
      input.key = key
      if chance() { input.pressID = id(maximum: TextRules.maximumIDLength) }
      var envelope = Tenfoot_V1_Envelope(
        sender: chance(80) ? id(maximum: TextRules.maximumIDLength) : "", seq: uint64(),
        sentAtNanoseconds: uint64(), replyTo: chance(20) ? uint64() : 0, body: .input(input))
      if chance(10) { envelope.protocolVersion = pick([0, 2, .max]) }
      return try envelope.serializedBytes()
    }

    /// Flips a bit, drops, inserts or duplicates bytes somewhere in `bytes`.
    mutating func mutate(_ bytes: inout [UInt8]) {
      guard !bytes.isEmpty else { return bytes.append(UInt8(random.below(256))) }
      let at = random.below(bytes.count)
      switch random.below(5) {
      case 0: bytes[at] ^= 1 << UInt8(random.below(8))
      case 1: bytes.remove(at: at)
      case 2: bytes.insert(UInt8(random.below(256)), at: at)
      case 3: bytes.removeLast(random.below(bytes.count - at) + 1)
      default: bytes.insert(contentsOf: Array(bytes[at..<min(bytes.count, at + 4)]), at: at)
      }
    }
  }

  /// Compares the two paths on `bytes`; returns whether the lane took the frame.
  static func compare(_ bytes: [UInt8], peer: [UInt8], principal: Principal) throws -> Bool {
    let input = KeyInputFrame(bytes)
    #expect((input != nil) == (Tenfoot_V1_Envelope.decodedKeyInput(bytes) != nil), "\(bytes)")
    guard let input else { return false }
    let envelope = try #require(try? Tenfoot_V1_Envelope.decode(bytes), "\(bytes)")
    #expect(input.envelope == envelope, "\(bytes)")
    let generic = generic(envelope, peer: peer, principal: principal)
    let lane = lane(input, peer: peer, principal: principal)
    #expect(lane == generic, "\(bytes)")
    return true
  }

  @Test("random key inputs, many over a limit", arguments: [false, true])
  func randomFrames(curve: Bool) throws {
    var samples = Samples(random: SplitMix64(seed: curve ? 0x5EED : 0xA11))
    var outcomes = (taken: 0, refused: 0, mapped: 0, unmapped: 0)
    for _ in 0..<4000 {
      let bytes = try samples.frame()
      let peer: [UInt8] = samples.chance(80) ? [0, 0x6B, 0x8B, 0x45, 0x67] : []
      let principal = curve ? Self.remote : .local
      #expect(try Self.compare(bytes, peer: peer, principal: principal), "\(bytes)")
      let served = Self.lane(try #require(KeyInputFrame(bytes)), peer: peer, principal: principal)
      outcomes.taken += 1
      switch served.request {
      case nil: outcomes.refused += 1
      case .success: outcomes.mapped += 1
      case .failure: outcomes.unmapped += 1
      }
    }
    // Each branch is compared many times, or the test says little.
    #expect(outcomes.refused > 500 && outcomes.mapped > 500 && outcomes.unmapped > 300)
  }

  @Test("mutated frames: the lane takes what the hand decoder takes, and agrees")
  func mutatedFrames() throws {
    var samples = Samples(random: SplitMix64(seed: 0xF00D))
    var (taken, declined) = (0, 0)
    for _ in 0..<20_000 {
      var bytes = try samples.frame()
      for _ in 0..<(1 + samples.random.below(3)) { samples.mutate(&bytes) }
      let principal = samples.chance() ? Self.remote : .local
      if try Self.compare(bytes, peer: [0, 1, 2, 3, 4], principal: principal) {
        taken += 1
      } else {
        declined += 1
      }
    }
    #expect(taken > 1000 && declined > 3000, "\(taken) taken, \(declined) declined")
  }

  @Test("the domain answers and publishes the same for either path", arguments: [false, true])
  func sameOutcomes(curve: Bool) throws {
    var viaEnvelope = WireBroker(epoch: 1, name: "test")
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = "living-room"
    register.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 2))
    let registered = viaEnvelope.handle(
      Tenfoot_V1_Envelope(
        sender: "screen:main", seq: 1, sentAtNanoseconds: 1, body: .registerScreen(register)),
      at: .origin)
    #expect(!registered.publications.isEmpty)
    var viaLane = viaEnvelope
    let principal = curve ? Self.remote : .local
    let owners = curve ? ["living-room": "ab12"] : [:]
    var samples = Samples(random: SplitMix64(seed: curve ? 0xC0 : 0xC1))
    var published = 0
    for step in 0..<3000 {
      let bytes = try samples.frame()
      let peer: [UInt8] = [0, 9, UInt8(step % 3), 1, 2]
      let now = BrokerInstant.origin + .milliseconds(Int64(step))
      let input = try #require(KeyInputFrame(bytes))
      let envelope = try Tenfoot_V1_Envelope.decode(bytes)
      guard InputLimits.problem(input) == nil else { continue }
      let generic = viaEnvelope.handle(
        envelope, body: envelope.body, peer: peer, principal: principal, owners: owners,
        press: nil, at: now)
      let lane = viaLane.handle(
        input, peer: peer, principal: principal, owners: owners, press: nil, at: now)
      #expect(lane.reply == generic.reply, "step \(step)")
      #expect(lane.publications.map { $0.topic } == generic.publications.map { $0.topic })
      #expect(lane.publications.map { $0.body } == generic.publications.map { $0.body })
      #expect(lane.press == generic.press && lane.held == generic.held)
      published += generic.publications.count
    }
    #expect(published > 50, "\(published) publications compared")
  }
}
