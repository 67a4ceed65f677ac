import Foundation
import SwiftProtobuf
import TenFootProtocol
import TestSupport
import Testing

/// `Envelope.encoded()` splices the body after the header instead of letting SwiftProtobuf
/// size the whole envelope twice: the bytes must stay exactly SwiftProtobuf's.
@Suite("Envelope encoding matches SwiftProtobuf byte for byte")
struct EncodingTests {
  /// An envelope's encoding for each sample body except those of kind `name` (what a decoder
  /// written by hand for that kind must decline).
  static func frames(except name: String) throws -> [[UInt8]] {
    try bodies.filter { Tenfoot_V1_Envelope.name(of: $0.1) != name }.map {
      try Tenfoot_V1_Envelope(sender: "s", seq: 1, sentAtNanoseconds: 2, body: $0.1)
        .serializedBytes()
    }
  }

  static let bodies: [(String, Tenfoot_V1_Envelope.OneOf_Body)] = {
    var delta = Tenfoot_V1_StateDelta()
    delta.screenID = "living-room"
    delta.epoch = 1_795_426_640_050_824
    delta.seq = 300
    delta.focused = "r0c1"
    delta.changed = [
      .with {
        $0.id = "r0c0"
        $0.state = .unfocused
      },
      .with {
        $0.id = "r0c1"
        $0.state = .focused
      },
    ]
    delta.effects = [
      .with {
        $0.focusChanged = .with {
          $0.previous = "r0c0"
          $0.next = "r0c1"
          $0.heading = .right
        }
      },
      .with { $0.movementFailed = .up },
    ]
    delta.cause = .with {
      $0.sender = "remote:bench"
      $0.seq = 12
    }
    var ack = Tenfoot_V1_Ack()
    ack.screenID = "living-room"
    ack.stateSeq = 300
    ack.focused = "r0c1"
    ack.effects = delta.effects
    var snapshot = Tenfoot_V1_ScreenState()
    snapshot.screenID = "big"
    snapshot.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 30, columns: 40))  // > 16 KiB
    snapshot.states = snapshot.layout.items.map { item in
      .with {
        $0.id = item.id
        $0.state = .unfocused
      }
    }
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = "big"
    register.layout = snapshot.layout
    return [
      ("hello", .hello(.with { $0.role = .remote })),
      ("welcome", .welcome(.with { $0.screens = ["a", "b"] })),
      ("register_screen", .registerScreen(register)),
      ("input", .input(.with { $0.key.key = .select })),
      ("snapshot_request", .snapshotRequest(.with { $0.screenID = "main" })),
      ("snapshot", .snapshot(snapshot)),
      ("delta", .delta(delta)),
      ("ack", .ack(ack)),
      ("error", .error(.with { $0.code = .unknownScreen })),
      ("empty heartbeat", .heartbeat(Tenfoot_V1_Heartbeat())),
      ("patch_layout", .patchLayout(Tenfoot_V1_PatchLayout())),
      ("focus_request", .focusRequest(Tenfoot_V1_FocusRequest())),
      ("debug_request", .debugRequest(Tenfoot_V1_DebugRequest())),
      ("debug_report", .debugReport(Tenfoot_V1_DebugReport())),
      ("pair_request", .pairRequest(Tenfoot_V1_PairRequest())),
      ("pair_challenge", .pairChallenge(Tenfoot_V1_PairChallenge())),
      ("pair_proof", .pairProof(Tenfoot_V1_PairProof())),
      ("paired", .paired(Tenfoot_V1_Paired())),
      ("pairing_prompt", .pairingPrompt(Tenfoot_V1_PairingPrompt())),
      ("empty ack", .ack(Tenfoot_V1_Ack())),
    ]
  }()

  @Test("every body kind, with and without header fields", arguments: 0..<bodies.count)
  func sameBytes(_ index: Int) throws {
    let (name, body) = Self.bodies[index]
    for envelope in [
      Tenfoot_V1_Envelope(
        sender: "broker", seq: 1 << 40, sentAtNanoseconds: 123_456_789_012, replyTo: 9, body: body),
      Tenfoot_V1_Envelope(sender: "", seq: 0, sentAtNanoseconds: 0, body: body),
      // Every header field at its widest: 10-byte varints, a sender whose length needs two
      // varint bytes and whose characters several UTF-8 bytes each.
      Tenfoot_V1_Envelope(
        sender: String(repeating: "é📺", count: 40), seq: .max, sentAtNanoseconds: .max,
        replyTo: .max, body: body),
    ] {
      let expected: [UInt8] = try envelope.serializedBytes()
      let bytes = envelope.encoded()
      #expect(
        bytes == expected, "\(name): \(bytes.count) bytes, SwiftProtobuf wrote \(expected.count)")
      #expect(try Tenfoot_V1_Envelope.decode(bytes) == envelope, "\(name) round trip")
      // Encoded from its parts, as the broker sends replies and publications.
      let direct = Tenfoot_V1_Envelope.encoded(
        sender: envelope.sender, seq: envelope.seq, sentAtNanoseconds: envelope.sentAtNs,
        replyTo: envelope.replyTo, body: body)
      #expect(direct == expected, "\(name) from its parts: \(direct.count) bytes")
    }
  }

  @Test("a snapshot encoded beforehand makes the envelope SwiftProtobuf writes with it as body")
  func encodedBody() throws {
    let snapshot = try #require(
      Self.bodies.compactMap { if case .snapshot(let state) = $0.1 { state } else { nil } }.first)
    let state: [UInt8] = try snapshot.serializedBytes()
    var header = Tenfoot_V1_Envelope(
      sender: "broker", seq: 1 << 40, sentAtNanoseconds: 123_456_789_012, body: .snapshot(.init()))
    header.body = nil
    var whole = header
    whole.body = .snapshot(snapshot)
    let expected: [UInt8] = try whole.serializedBytes()
    #expect(header.encoded(bodyField: Tenfoot_V1_Envelope.snapshotField, state) == expected)
  }

  @Test("an envelope without a body, or with unknown fields, is still encoded exactly")
  func fallbacks() throws {
    let empty = Tenfoot_V1_Envelope()
    var versionOnly = Tenfoot_V1_Envelope()
    versionOnly.protocolVersion = .max
    versionOnly.body = .hello(Tenfoot_V1_Hello())
    #expect(versionOnly.encoded() == (try versionOnly.serializedBytes() as [UInt8]))
    #expect(empty.encoded() == (try empty.serializedBytes() as [UInt8]))
    let header = Tenfoot_V1_Envelope.with {
      $0.protocolVersion = WireProtocol.version
      $0.sender = "broker"
      $0.seq = 7
      $0.sentAtNs = 11
      $0.replyTo = 3
    }
    let fromParts = Tenfoot_V1_Envelope.encoded(
      sender: "broker", seq: 7, sentAtNanoseconds: 11, replyTo: 3, body: nil)
    #expect(fromParts == (try header.serializedBytes() as [UInt8]))
    // Field 99 (varint 1) is unknown to this build: kept, and written where SwiftProtobuf puts it.
    var withUnknown = try Tenfoot_V1_Envelope(serializedBytes: [0x98, 0x06, 0x01] as [UInt8])
    withUnknown.body = .heartbeat(.with { $0.epoch = 5 })
    #expect(withUnknown.encoded() == (try withUnknown.serializedBytes() as [UInt8]))
  }
}
