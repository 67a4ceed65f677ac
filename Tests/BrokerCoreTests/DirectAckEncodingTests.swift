import FocusEngine
import SwiftProtobuf
import TenFootProtocol
import Testing

@testable import BrokerCore
@testable import BrokerDomain

/// The broker writes a press's reply straight from the domain's `Acknowledgement`
/// (`Acknowledgement.writeAck`, sent as `OutgoingReply.ack`) instead of making the `Ack`
/// message first: these tests pin those bytes to SwiftProtobuf's encoding of the message
/// `Tenfoot_V1_Ack(ack)` makes, and the envelope around them to the reply the old path sent.
@Suite("An ack written from the domain's acknowledgement matches the Ack made from it")
struct DirectAckEncodingTests {
  /// The bytes `writeAck` writes and the bytes SwiftProtobuf writes for the same ack.
  static func encodings(_ ack: Acknowledgement) throws -> (direct: [UInt8], made: [UInt8]) {
    var writer = WireWriter()
    ack.writeAck(to: &writer)
    return (writer.bytes, try Tenfoot_V1_Ack(ack).serializedBytes())
  }

  /// Random acknowledgements: any seq, focused nil, empty or odd, up to four effects.
  static func acks(seed: UInt64, count: Int) -> [Acknowledgement] {
    var samples = ChangeSamples(seed: seed)
    let effects = samples.everyEffect()
    return (0..<count).map { _ in
      var ack = Acknowledgement(
        screen: samples.string(), seq: samples.random.next() >> UInt64(samples.below(64)),
        focused: samples.chance() ? samples.string() : nil,
        effects: (0..<samples.below(5)).map { _ in samples.pick(effects) },
        editingText: samples.chance())
      ack.app = samples.chance()
      return ack
    }
  }

  @Test("random acknowledgements: the same bytes, decoding to the Ack the old path made")
  func randomAcks() throws {
    for (index, ack) in Self.acks(seed: 0xAC4, count: 3000).enumerated() {
      let (direct, made) = try Self.encodings(ack)
      try #require(direct == made, "ack \(index): \(ack)")
      try #require(try Tenfoot_V1_Ack(serializedBytes: direct) == Tenfoot_V1_Ack(ack))
    }
  }

  @Test("edge cases: nothing set, focused empty or nil, the largest seq, odd strings")
  func edges() throws {
    let odd = "é📺 \u{0} \u{FFFD}" + String(repeating: "🎬", count: 40)
    var samples = ChangeSamples(seed: 3)
    var all = Acknowledgement(
      screen: odd, seq: .max, focused: odd, effects: samples.everyEffect(), editingText: true)
    all.app = true
    let acks = [
      Acknowledgement(screen: "", seq: 0, focused: nil),
      Acknowledgement(screen: "", seq: 0, focused: ""),
      Acknowledgement(screen: "main", seq: .max, focused: nil),
      Acknowledgement(screen: String(repeating: "x", count: 128), seq: 1 << 63, focused: odd),
      all,
    ]
    for ack in acks {
      let (direct, made) = try Self.encodings(ack)
      #expect(direct == made, "\(ack)")
      #expect(try Tenfoot_V1_Ack(serializedBytes: direct) == Tenfoot_V1_Ack(ack), "\(ack)")
    }
  }

  @Test("in its envelope, as the broker replies: the reply the old path sent")
  func inEnvelope() throws {
    for ack in Self.acks(seed: 0xE4, count: 200) {
      var writer = WireWriter()
      Tenfoot_V1_Envelope.write(
        sender: "broker", seq: 9, sentAtNanoseconds: 12, replyTo: 7,
        bodyField: Tenfoot_V1_Envelope.ackField, to: &writer
      ) { ack.writeAck(to: &$0) }
      let old = Tenfoot_V1_Envelope.encoded(
        sender: "broker", seq: 9, sentAtNanoseconds: 12, replyTo: 7,
        body: BrokerReply.ack(ack).wire)
      try #require(writer.bytes == old, "\(ack)")
      let envelope = try Tenfoot_V1_Envelope(serializedBytes: writer.bytes)
      try #require(envelope.body == .ack(Tenfoot_V1_Ack(ack)))
      #expect(envelope.replyTo == 7 && envelope.seq == 9 && envelope.sender == "broker")
    }
  }

  @Test("every reply goes out as the body the old path made; only an ack is kept as a value")
  func outgoingReplies() {
    let ack = Acknowledgement(screen: "main", seq: 3, focused: "r0c1")
    let replies: [BrokerReply] = [
      .ack(ack), .error(.noScreenRegistered), .held(token: 4, screen: "main"),
      .expired(screens: ["main"]),
    ]
    for reply in replies {
      #expect(reply.outgoing.body == reply.wire, "\(reply)")
    }
    guard case .ack(let kept) = BrokerReply.ack(ack).outgoing else {
      Issue.record("an ack is not kept as the domain's value")
      return
    }
    #expect(kept == ack)
    #expect(OutgoingReply.body(.error(.init(.forbidden, "no"))).error?.code == .forbidden)
    #expect(OutgoingReply.ack(ack).error == nil)
  }
}
