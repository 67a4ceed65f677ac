import FocusEngine
import SwiftProtobuf
import TenFootProtocol
import Testing

/// A key input is decoded by hand (`Envelope+KeyInput.swift`) when its bytes have the usual
/// shape: whatever it returns must be what SwiftProtobuf decodes, and what it declines
/// SwiftProtobuf decodes (or refuses) through `decode(_:)`.
@Suite("Hand-written key input decoding matches SwiftProtobuf")
struct KeyInputDecodingTests {
  static func keyInput(_ samples: inout PressMessageSamples) -> Tenfoot_V1_Envelope {
    var key = Tenfoot_V1_KeyEvent()
    if samples.chance(90) { key.key = samples.enumValue(positive: true) }
    if samples.chance(90) { key.phase = samples.enumValue(positive: true) }
    if samples.chance(90) { key.timestampNs = samples.uint64() }
    var input = Tenfoot_V1_Input()
    if samples.chance() { input.screenID = samples.string() }
    input.key = key
    if samples.chance() { input.pressID = samples.string() }
    var envelope = Tenfoot_V1_Envelope(
      sender: samples.chance(90) ? samples.string() : "", seq: samples.uint64(),
      sentAtNanoseconds: samples.uint64(), replyTo: samples.uint64(), body: .input(input))
    if samples.chance(10) { envelope.protocolVersion = samples.pick([0, 2, .max]) }
    return envelope
  }

  /// What SwiftProtobuf decodes `bytes` to, nil where it refuses them.
  static func reference(_ bytes: [UInt8]) -> Tenfoot_V1_Envelope? {
    try? Tenfoot_V1_Envelope(serializedBytes: bytes)
  }

  @Test("random key inputs take the hand-written path and decode to the message encoded")
  func keyInputs() throws {
    var samples = PressMessageSamples(seed: 0x1C9)
    for index in 0..<3000 {
      let envelope = Self.keyInput(&samples)
      let bytes: [UInt8] = try envelope.serializedBytes()
      let decoded = try #require(Tenfoot_V1_Envelope.decodedKeyInput(bytes), "input \(index)")
      #expect(decoded == envelope, "input \(index)")
      #expect(decoded == Self.reference(bytes))
    }
  }

  @Test("mutated frames: the hand-written path answers as SwiftProtobuf does, or declines")
  func mutatedFrames() throws {
    var samples = PressMessageSamples(seed: 0xF422)
    var declined = 0
    for _ in 0..<20_000 {
      var bytes: [UInt8] = try Self.keyInput(&samples).serializedBytes()
      for _ in 0..<(1 + samples.random.below(3)) { mutate(&bytes, &samples) }
      let reference = Self.reference(bytes)
      if let decoded = Tenfoot_V1_Envelope.decodedKeyInput(bytes) {
        try #require(decoded == reference, "\(bytes)")
      } else {
        declined += 1
      }
      let viaDecode = try? Tenfoot_V1_Envelope.decode(bytes)
      try #require(viaDecode == reference, "decode(_:) of \(bytes)")
    }
    // Most single mutations break the shape; the test means something only if many do.
    #expect(declined > 5000, "\(declined) of 20,000 mutated frames declined")
  }

  /// Flips a bit, drops, inserts or duplicates bytes somewhere in `bytes`.
  func mutate(_ bytes: inout [UInt8], _ samples: inout PressMessageSamples) {
    guard !bytes.isEmpty else { return bytes.append(UInt8(samples.random.below(256))) }
    let at = samples.random.below(bytes.count)
    switch samples.random.below(5) {
    case 0: bytes[at] ^= 1 << UInt8(samples.random.below(8))
    case 1: bytes.remove(at: at)
    case 2: bytes.insert(UInt8(samples.random.below(256)), at: at)
    case 3: bytes.removeLast(samples.random.below(bytes.count - at) + 1)
    default:
      let repeated = Array(bytes[at..<min(bytes.count, at + 4)])
      bytes.insert(contentsOf: repeated, at: at)
    }
  }

  @Test("other shapes are declined and decoded by SwiftProtobuf")
  func otherShapes() throws {
    let press = Tenfoot_V1_Envelope(
      sender: "remote:bench", seq: 7, sentAtNanoseconds: 11,
      body: .input(
        .with {
          $0.screenID = "living-room"
          $0.key.key = .right
          $0.key.phase = .down
          $0.pressID = "p-1"
        }))
    let canonical: [UInt8] = try press.serializedBytes()
    #expect(Tenfoot_V1_Envelope.decodedKeyInput(canonical) == press)
    var negativeKey = press
    negativeKey.input.key.key = .UNRECOGNIZED(-3)
    var touch = press
    touch.input.touch = .with { $0.x = 1 }
    let unknownField: [UInt8] = canonical + [0x98, 0x06, 0x01]
    let headerRepeated: [UInt8] = canonical + [0x18, 0x09]  // seq again, after the body
    let invalidSender: [UInt8] = [0x12, 0x02, 0xC3, 0x28] + canonical.dropFirst(16)
    var others: [[UInt8]] = [
      try negativeKey.serializedBytes(), try touch.serializedBytes(), unknownField, headerRepeated,
      invalidSender, [],
    ]
    others += try EncodingTests.frames(except: "input")
    for bytes in others {
      #expect(Tenfoot_V1_Envelope.decodedKeyInput(bytes) == nil, "\(bytes.prefix(24))")
      #expect((try? Tenfoot_V1_Envelope.decode(bytes)) == Self.reference(bytes))
    }
  }
}
