import Foundation
import SwiftProtobuf
import TenFootProtocol
import Testing

/// The press path's `Ack` and `StateDelta` are encoded by hand (`PressMessages+Wire.swift`):
/// these tests pin that encoding to SwiftProtobuf's `serializedBytes()`, byte for byte, and
/// fail when the proto gains a field the hand-written code does not know.
@Suite("Hand-written Ack and StateDelta encoding matches SwiftProtobuf")
struct PressEncodingTests {
  /// Each hand-encoded message's field numbers, as the proto declares them. A field added to
  /// one of these messages must be added to its `write(to:)` too, then here.
  static var fieldNumbers: [(String, [Int], (Int) -> Bool)] {
    [
      ("Input", [1, 2, 3, 4, 5, 6], isKnown(Tenfoot_V1_Input.self)),
      ("KeyEvent", [1, 2, 3], isKnown(Tenfoot_V1_KeyEvent.self)),
      ("Ack", [1, 2, 3, 4, 5, 6], isKnown(Tenfoot_V1_Ack.self)),
      (
        "StateDelta", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 20],
        isKnown(Tenfoot_V1_StateDelta.self)
      ),
      ("FocusEffect", Array(1...15), isKnown(Tenfoot_V1_FocusEffect.self)),
      ("FocusUpdate", [1, 2, 3, 4], isKnown(Tenfoot_V1_FocusUpdate.self)),
      ("Cause", [1, 2], isKnown(Tenfoot_V1_Cause.self)),
      ("ItemState", [1, 2], isKnown(Tenfoot_V1_ItemState.self)),
      ("ScrollOffset", [1, 2, 3], isKnown(Tenfoot_V1_ScrollOffset.self)),
      ("SelectionChange", [1, 2], isKnown(Tenfoot_V1_SelectionChange.self)),
      ("FocusDenial", [1, 2, 3], isKnown(Tenfoot_V1_FocusDenial.self)),
      ("TextChange", [1, 2], isKnown(Tenfoot_V1_TextChange.self)),
      ("ItemsInView", [1, 2, 3], isKnown(Tenfoot_V1_ItemsInView.self)),
      ("Parallax", [1, 2, 3, 4, 5, 6, 7], isKnown(Tenfoot_V1_Parallax.self)),
      ("Point", [1, 2], isKnown(Tenfoot_V1_Point.self)),
      ("Shadow", [1, 2, 3], isKnown(Tenfoot_V1_Shadow.self)),
      ("PointerState", [1, 2, 3, 4, 5, 6], isKnown(Tenfoot_V1_PointerState.self)),
      ("Announcement", [1, 2, 3], isKnown(Tenfoot_V1_Announcement.self)),
      ("AnnouncementPart", [1, 2], isKnown(Tenfoot_V1_AnnouncementPart.self)),
    ]
  }

  /// Whether field `number` is declared in `M`: a field under that number with a short
  /// payload of each wire type (a varint, 8 fixed bytes, an empty length-delimited payload)
  /// is kept as an unknown field only when no field of that number is declared.
  static func isKnown<M: SwiftProtobuf.Message>(_ type: M.Type) -> (Int) -> Bool {
    { number in
      let probes: [(wireType: Int, payload: [UInt8])] = [
        (0, [1]), (1, [UInt8](repeating: 1, count: 8)), (2, [0]),
      ]
      return probes.contains { wireType, payload in
        var probe = WireProbe()
        probe.varint(UInt64(number << 3 | wireType))
        probe.bytes += payload
        guard let message = try? M(serializedBytes: probe.bytes) else { return true }
        return message.unknownFields.data.isEmpty
      }
    }
  }

  @Test("each hand-encoded message declares exactly the fields its encoder writes")
  func fieldsPinned() {
    for (name, numbers, isKnown) in Self.fieldNumbers {
      // Two-byte tags: every field number below 2,048.
      let declared = (1..<2048).filter(isKnown)
      #expect(
        declared == numbers,
        """
        \(name) declares fields \(declared), the hand-written encoder writes \(numbers): \
        update its write(to:) in PressMessages+Wire.swift
        """)
    }
  }

  @Test("random acks: the same bytes as SwiftProtobuf, and they decode to the same ack")
  func acks() throws {
    var samples = PressMessageSamples(seed: 0xAC4)
    var writer = WireWriter()
    for index in 0..<2000 {
      let ack = samples.ack()
      writer.reset()
      ack.write(to: &writer)
      let expected: [UInt8] = try ack.serializedBytes()
      try #require(writer.bytes == expected, "ack \(index): \(ack)")
      #expect(try Tenfoot_V1_Ack(serializedBytes: writer.bytes) == ack, "ack \(index) round trip")
    }
  }

  @Test("random key inputs in their envelopes: the same bytes as SwiftProtobuf")
  func keyInputs() throws {
    var samples = PressMessageSamples(seed: 0x4E1)
    var writer = WireWriter()
    for index in 0..<2000 {
      let envelope = KeyInputDecodingTests.keyInput(&samples)
      let expected: [UInt8] = try envelope.serializedBytes()
      try #require(envelope.encoded() == expected, "input \(index): \(envelope)")
      writer.reset()
      Tenfoot_V1_Envelope.write(
        sender: envelope.sender, seq: envelope.seq, sentAtNanoseconds: envelope.sentAtNs,
        replyTo: envelope.replyTo, body: envelope.body ?? .input(.init()), to: &writer)
      if envelope.protocolVersion == WireProtocol.version {
        try #require(writer.bytes == expected, "input \(index) written: \(envelope)")
      }
    }
  }

  @Test("random deltas: the same bytes as SwiftProtobuf, and they decode to the same delta")
  func deltas() throws {
    var samples = PressMessageSamples(seed: 0xDE17A)
    var writer = WireWriter()
    for index in 0..<2000 {
      let delta = samples.delta()
      writer.reset()
      delta.write(to: &writer)
      let expected: [UInt8] = try delta.serializedBytes()
      try #require(writer.bytes == expected, "delta \(index): \(delta)")
      #expect(
        try Tenfoot_V1_StateDelta(serializedBytes: writer.bytes) == delta,
        "delta \(index) round trip")
    }
  }

  @Test("every focus effect kind, at its default and set, alone")
  func focusEffects() throws {
    var samples = PressMessageSamples(seed: 0xEFF)
    var kinds = Set<String>()
    for _ in 0..<3000 {
      let effect = samples.focusEffect()
      kinds.insert(
        effect.kind.map { String(String(describing: $0).prefix(while: \.isLetter)) } ?? "nil")
      var writer = WireWriter()
      effect.write(to: &writer)
      #expect(writer.bytes == (try effect.serializedBytes() as [UInt8]), "\(effect)")
    }
    #expect(kinds.count == 16, "every oneof case and none: \(kinds.sorted())")
  }

  @Test("fully populated messages, with every nested message present")
  func fullyPopulated() throws {
    let delta = Self.fullDelta()
    var ack = Tenfoot_V1_Ack()
    ack.stateSeq = 300
    ack.focused = ""
    ack.effects = delta.effects
    ack.screenID = "living-room"
    ack.editingText = true
    ack.app = true
    var writer = WireWriter()
    delta.write(to: &writer)
    #expect(writer.bytes == (try delta.serializedBytes() as [UInt8]))
    writer.reset()
    ack.write(to: &writer)
    #expect(writer.bytes == (try ack.serializedBytes() as [UInt8]))
    // Empty messages write nothing.
    writer.reset()
    Tenfoot_V1_StateDelta().write(to: &writer)
    Tenfoot_V1_Ack().write(to: &writer)
    #expect(writer.bytes.isEmpty)
  }

  /// A delta with every field and every nested message's fields set (a NaN and a -0.0 among
  /// the doubles: both are written).
  static func fullDelta() -> Tenfoot_V1_StateDelta {
    var cause = Tenfoot_V1_Cause()
    cause.sender = "remote:bench"
    cause.seq = 12
    var update = Tenfoot_V1_FocusUpdate()
    update.previous = "r0c0"
    update.next = "r0c1"
    update.heading = .right
    update.cause = cause
    var point = Tenfoot_V1_Point()
    point.x = -0.0
    point.y = .nan
    var parallax = Tenfoot_V1_Parallax()
    parallax.item = "poster"
    parallax.rotateX = 1
    parallax.rotateY = -2
    parallax.scale = 1.05
    parallax.translate = [point, point]
    parallax.shadow.radius = 3
    parallax.shadow.offsetY = 4
    parallax.shadow.opacity = 0.5
    parallax.specular = point
    var part = Tenfoot_V1_AnnouncementPart()
    part.kind = .label
    part.text = "Ada"
    var delta = Tenfoot_V1_StateDelta()
    delta.screenID = "living-room"
    delta.epoch = .max
    delta.seq = 1 << 63
    delta.focused = "r0c1"
    delta.changed = [
      .with {
        $0.id = "r0c1"
        $0.state = .focused
      }
    ]
    delta.effects = [.with { $0.focusChanged = update }]
    delta.cause = cause
    delta.scroll = [.with { $0.group = "rail" }]
    delta.parallax = parallax
    delta.text = ["name": "Ada", "": ""]
    delta.editingText = true
    delta.pointer.x = 1
    delta.pointer.y = 2
    delta.pointer.visible = true
    delta.pointer.shape = "circle"
    delta.pointer.effect = .lift
    delta.pointer.target = "t"
    delta.announcement.parts = [part, part]
    delta.announcement.interrupt = true
    delta.announcement.text = "Ada"
    return delta
  }

  @Test("unknown fields a decoded message kept are written last, as SwiftProtobuf writes them")
  func unknownFields() throws {
    var samples = PressMessageSamples(seed: 0x5EED)
    // Field 99, varint 1, and field 100, a 3-byte string: unknown to this build.
    let unknown: [UInt8] = [0x98, 0x06, 0x01, 0xA2, 0x06, 0x03, 0x61, 0x62, 0x63]
    for _ in 0..<200 {
      let ack = try Tenfoot_V1_Ack(
        serializedBytes: (try samples.ack().serializedBytes() as [UInt8]) + unknown)
      let delta = try Tenfoot_V1_StateDelta(
        serializedBytes: (try samples.delta().serializedBytes() as [UInt8]) + unknown)
      // A nested message's unknown fields, inside the message's length.
      let effect = try Tenfoot_V1_FocusEffect(
        serializedBytes: (try samples.focusEffect().serializedBytes() as [UInt8]) + unknown)
      var wrapper = Tenfoot_V1_Ack()
      wrapper.effects = [effect]
      var writer = WireWriter()
      ack.write(to: &writer)
      #expect(writer.bytes == (try ack.serializedBytes() as [UInt8]))
      writer.reset()
      delta.write(to: &writer)
      #expect(writer.bytes == (try delta.serializedBytes() as [UInt8]))
      writer.reset()
      wrapper.write(to: &writer)
      #expect(writer.bytes == (try wrapper.serializedBytes() as [UInt8]))
    }
  }

  @Test("an envelope carrying an ack or a delta, written into a reused writer")
  func envelopes() throws {
    var samples = PressMessageSamples(seed: 0xE4E)
    var writer = WireWriter(capacity: 8)
    for index in 0..<500 {
      let body: Tenfoot_V1_Envelope.OneOf_Body =
        index % 2 == 0 ? .ack(samples.ack()) : .delta(samples.delta())
      let sender = samples.string()
      let (seq, sentAt, replyTo) = (samples.uint64(), samples.uint64(), samples.uint64())
      let envelope = Tenfoot_V1_Envelope(
        sender: sender, seq: seq, sentAtNanoseconds: sentAt, replyTo: replyTo, body: body)
      let expected: [UInt8] = try envelope.serializedBytes()
      writer.reset()
      Tenfoot_V1_Envelope.write(
        sender: sender, seq: seq, sentAtNanoseconds: sentAt, replyTo: replyTo, body: body,
        to: &writer)
      try #require(writer.bytes == expected, "envelope \(index)")
      #expect(
        Tenfoot_V1_Envelope.encoded(
          sender: sender, seq: seq, sentAtNanoseconds: sentAt, replyTo: replyTo, body: body)
          == expected)
    }
  }
}

/// A varint writer for the field probes (the library's `WireWriter` keeps its own internal).
private struct WireProbe {
  var bytes: [UInt8] = []

  mutating func varint(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }
}
