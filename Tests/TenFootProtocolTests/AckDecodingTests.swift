import SwiftProtobuf
import TenFootProtocol
import Testing

/// An ack is decoded by hand (`Envelope+Ack.swift`) when its bytes have the broker's shape:
/// whatever it returns must be what SwiftProtobuf decodes, and what it declines SwiftProtobuf
/// decodes (or refuses) through `decode(_:)`.
@Suite("Hand-written ack decoding matches SwiftProtobuf")
struct AckDecodingTests {
  /// An envelope holding a random ack; with `movesOnly`, without the effects a move does not
  /// make (left to SwiftProtobuf).
  static func envelope(_ samples: inout PressMessageSamples, movesOnly: Bool)
    -> Tenfoot_V1_Envelope
  {
    var ack = samples.ack()
    if movesOnly {
      ack.effects.removeAll { effect in
        switch effect.kind {
        case .focusChanged, .movementFailed, .highlighted, .activated, .scrolled: false
        default: true
        }
      }
    }
    return Tenfoot_V1_Envelope(
      sender: samples.chance(90) ? samples.string() : "", seq: samples.uint64(),
      sentAtNanoseconds: samples.uint64(), replyTo: samples.uint64(), body: .ack(ack))
  }

  @Test("random acks: what the hand-written path reads is what SwiftProtobuf reads")
  func randomAcks() throws {
    let read = try HandDecodingChecks.random(
      seed: 0xAC4, count: 3000, make: { Self.envelope(&$0, movesOnly: $1 % 2 == 0) },
      decoded: Tenfoot_V1_Envelope.decodedAck)
    // Enum values past Int32.max and invalid strings are declined; most of the moves-only
    // half must still take the hand-written path.
    #expect(read > 600, "\(read) of 3,000 random acks read by hand")
  }

  @Test("a press's ack as the broker writes it is read by hand")
  func brokerShape() throws {
    var ack = Tenfoot_V1_Ack()
    ack.stateSeq = 301
    ack.focused = "r0c1"
    ack.screenID = "living-room"
    ack.effects = [
      .with {
        $0.focusChanged = .with {
          $0.previous = "r0c0"
          $0.next = "r0c1"
          $0.heading = .right
          $0.cause = .with {
            $0.sender = "remote:sofa"
            $0.seq = 41
          }
        }
      },
      .with { $0.movementFailed = .left },
      .with { $0.highlighted = "r0c1" },
      .with {
        $0.scrolled = .with {
          $0.group = "row"
          $0.x = 240
        }
      },
    ]
    let bytes = Tenfoot_V1_Envelope.encoded(
      sender: "broker", seq: 9, sentAtNanoseconds: 1_795_426_640_050_824, replyTo: 41,
      body: .ack(ack))
    let decoded = try #require(Tenfoot_V1_Envelope.decodedAck(bytes))
    #expect(decoded == KeyInputDecodingTests.reference(bytes))
    #expect(decoded.body == .ack(ack))
    #expect(decoded.replyTo == 41)
  }

  @Test("mutated frames: the hand-written path answers as SwiftProtobuf does, or declines")
  func mutatedFrames() throws {
    let declined = try HandDecodingChecks.mutated(
      seed: 0xA3F, count: 10_000, make: { Self.envelope(&$0, movesOnly: true) },
      decoded: Tenfoot_V1_Envelope.decodedAck)
    #expect(declined > 2000, "\(declined) of 10,000 mutated frames declined")
  }

  @Test("other bodies and shapes are declined and decoded by SwiftProtobuf")
  func otherShapes() throws {
    var rareEffect = Tenfoot_V1_Ack()
    rareEffect.effects = [.with { $0.back = true }]
    let empty: [UInt8] = try Tenfoot_V1_Envelope(
      sender: "b", seq: 1, sentAtNanoseconds: 2, body: .ack(.init())
    ).serializedBytes()
    var others: [[UInt8]] = [
      try Tenfoot_V1_Envelope(sender: "b", seq: 1, sentAtNanoseconds: 2, body: .ack(rareEffect))
        .serializedBytes(),
      // An unknown field 9 (a varint) after the ack's state_seq.
      empty.dropLast(1) + [0x04, 0x08, 0x03, 0x48, 0x01],
      [],
    ]
    others += try EncodingTests.frames(except: "ack")
    for bytes in others {
      #expect(Tenfoot_V1_Envelope.decodedAck(bytes) == nil, "\(bytes.prefix(24))")
      #expect((try? Tenfoot_V1_Envelope.decode(bytes)) == KeyInputDecodingTests.reference(bytes))
    }
  }
}
