import FocusEngine
import SwiftProtobuf
import TenFootProtocol
import Testing

/// `WireWriter` stores through a pointer into a buffer it owns, one capacity check per field,
/// and `Announcement.write` writes the joined text from the parts without joining them: these
/// tests pin both to SwiftProtobuf's `serializedBytes()` for seeded random messages, with the
/// edges spelled out (varints at every 7-bit boundary, negative enums, doubles' -0.0 and NaN
/// payloads, multi-byte UTF-8, nested lengths at 127/128 and 16,383/16,384 bytes).
@Suite("WireWriter writes what SwiftProtobuf writes")
struct WireWriterEquivalenceTests {
  @Test("random nested groups: the same bytes, from a reused writer and from a tiny one")
  func randomGroups() throws {
    var samples = WireSamples(seed: 0x3172_17E5)
    var reused = WireWriter()
    for index in 0..<600 {
      let group = try samples.group(depth: 0)
      let expected: [UInt8] = try group.serializedBytes()
      reused.reset()
      Self.write(group, to: &reused)
      try #require(reused.bytes == expected, "group \(index): \(group)")
      var tiny = WireWriter(capacity: 1)
      Self.write(group, to: &tiny)
      try #require(tiny.bytes == expected, "group \(index), growing from 16 bytes")
      #expect(tiny.count == expected.count)
      tiny.withUnsafeBytes { #expect(Array($0) == expected) }
    }
  }

  @Test(
    "nested messages of 127, 128, 16,383 and 16,384 bytes, several levels deep",
    arguments: [127, 128, 129, 16383, 16384, 16385])
  func lengthBoundaries(length: Int) throws {
    // A group holding only its id: a tag, the id's length and the id.
    let idLength = length - 1 - (length - 3 < 0x80 ? 1 : length - 4 < 0x4000 ? 2 : 3)
    var inner = Tenfoot_V1_Group()
    inner.id = String(repeating: "g", count: idLength)
    try #require((try inner.serializedBytes() as [UInt8]).count == length)
    var group = inner
    for level in 0..<4 {
      var outer = Tenfoot_V1_Group()
      outer.id = level.isMultiple(of: 2) ? "" : "é"
      outer.groups = [group, inner]
      group = outer
      var writer = WireWriter(capacity: 16)
      Self.write(group, to: &writer)
      try #require(writer.bytes == (try group.serializedBytes() as [UInt8]), "level \(level)")
    }
  }

  @Test("varints at every 7-bit boundary, negative enums and doubles' bit patterns")
  func scalars() throws {
    var values: [UInt64] = [0, .max]
    for bits in stride(from: 7, to: 64, by: 7) {
      let boundary = UInt64(1) << UInt64(bits)
      values += [boundary - 1, boundary, boundary + 1]
    }
    let doubles: [Double] = [
      0, -0.0, 1, -1.5, .infinity, -.infinity, .nan, -.nan, .leastNonzeroMagnitude,
      .greatestFiniteMagnitude, Double(bitPattern: 0x7FF0_0000_0000_0001),
      Double(bitPattern: 0xFFF8_0000_DEAD_BEEF), Double(bitPattern: 0x7FF4_0000_0000_0000),
    ]
    for (index, value) in values.enumerated() {
      var group = Tenfoot_V1_Group()
      group.virtual.count = value
      group.virtual.columns = values[values.count - 1 - index]
      group.virtual.arrangement = .UNRECOGNIZED(-Int(index) - 1)
      group.search = .UNRECOGNIZED(Int(Int32.min) + index)
      group.navigation = .UNRECOGNIZED(Int(Int32.max) - index)
      let margin = doubles[index % doubles.count]
      group.scrollMargin = margin
      group.viewport.x = margin
      group.viewport.y = -margin
      group.virtual.sizes = [
        .with {
          $0.count = value
          $0.length = margin
        }
      ]
      var writer = WireWriter()
      Self.write(group, to: &writer)
      try #require(writer.bytes == (try group.serializedBytes() as [UInt8]), "\(value) \(margin)")
    }
  }

  @Test("a copy of a writer never sees the other's later bytes")
  func copiesDoNotAlias() {
    var first = WireWriter(capacity: 16)
    first.uint64(1, 300)
    var second = first
    second.string(2, "second")
    first.string(3, "first")
    #expect(first.bytes == [0x08, 0xAC, 0x02, 0x1A, 5] + Array("first".utf8))
    #expect(second.bytes == [0x08, 0xAC, 0x02, 0x12, 6] + Array("second".utf8))
    // A copy taken inside a nested message keeps the placeholder it saw.
    var kept = WireWriter()
    var outer = WireWriter()
    outer.message(4) {
      $0.bool(1, true)
      kept = $0
    }
    #expect(outer.bytes == [0x22, 2, 0x08, 1])
    #expect(kept.bytes == [0x22, 0, 0x08, 1])
    kept.reset()
    kept.uint64(1, 1)
    #expect(outer.bytes == [0x22, 2, 0x08, 1] && kept.bytes == [0x08, 1])
  }

  @Test("random announcements: the same bytes as the message made from them")
  func randomAnnouncements() throws {
    var random = SplitMix64(seed: 0xA11_0C3)
    let kinds = AnnouncementPart.Kind.allCases
    var writer = WireWriter()
    for index in 0..<3000 {
      var parts: [AnnouncementPart] = []
      for _ in 0..<Int.random(in: 0...5, using: &random) {
        let kind = kinds.randomElement(using: &random) ?? .label
        parts.append(AnnouncementPart(kind, WireSamples.text(&random, upTo: 12)))
      }
      // Hints first, last or alone, and empty texts, often.
      if Bool.random(using: &random) {
        let hint = AnnouncementPart(.hint, WireSamples.text(&random, upTo: 6))
        parts.insert(hint, at: Bool.random(using: &random) ? 0 : parts.count)
      }
      let announcement = Announcement(parts: parts, interrupt: Bool.random(using: &random))
      writer.reset()
      announcement.write(to: &writer)
      let expected: [UInt8] = try Tenfoot_V1_Announcement(announcement).serializedBytes()
      try #require(writer.bytes == expected, "announcement \(index): \(announcement)")
    }
  }

  @Test("announcement texts joined at the edges: one part, hint only, empty parts around")
  func announcementEdges() throws {
    let cases: [[AnnouncementPart]] = [
      [], [.init(.hint, "")], [.init(.hint, "Press to play")], [.init(.label, "Ünïcode 🎬")],
      [.init(.hint, "first"), .init(.label, "then")], [.init(.label, ""), .init(.hint, "h")],
      [.init(.label, "a"), .init(.value, ""), .init(.hint, "b"), .init(.trait, "")],
      [.init(.label, String(repeating: "€", count: 50)), .init(.hint, "x")],
    ]
    for parts in cases {
      var writer = WireWriter()
      let announcement = Announcement(parts: parts, interrupt: false)
      announcement.write(to: &writer)
      #expect(
        writer.bytes == (try Tenfoot_V1_Announcement(announcement).serializedBytes() as [UInt8]),
        "\(parts)")
    }
  }

  /// Writes `group` as its generated `traverse` does, through every `WireWriter` method.
  static func write(_ group: Tenfoot_V1_Group, to writer: inout WireWriter) {
    if !group.id.isEmpty { writer.string(1, group.id) }
    for item in group.items { writer.string(2, item) }
    for child in group.groups { writer.message(3) { write(child, to: &$0) } }
    if group.trapsFocus { writer.bool(4, true) }
    if group.remembersLastFocused { writer.bool(5, true) }
    if !group.preferredFocus.isEmpty { writer.string(6, group.preferredFocus) }
    if group.selectionFollowsFocus { writer.bool(7, true) }
    if group.search != .unspecified { writer.enum(8, group.search) }
    if group.scroll != .none { writer.enum(9, group.scroll) }
    if group.hasViewport {
      writer.message(10) {
        let rect = group.viewport
        for (field, value) in [(1, rect.x), (2, rect.y), (3, rect.width), (4, rect.height)]
        where value.bitPattern != 0 {
          $0.double(field, value)
        }
      }
    }
    if group.hasScrollMargin { writer.double(11, group.scrollMargin) }
    if group.disabled { writer.bool(12, true) }
    if group.navigation != .unspecified { writer.enum(13, group.navigation) }
    if group.revealOnPointer { writer.bool(14, true) }
    if group.hasAccessibilityLabel { writer.string(20, group.accessibilityLabel) }
    if group.hasVirtual { writer.message(30) { write(group.virtual, to: &$0) } }
    writer.unknown(group.unknownFields)
  }

  /// Writes `items` as its generated `traverse` does (no content map).
  static func write(_ items: Tenfoot_V1_VirtualItems, to writer: inout WireWriter) {
    if items.count != 0 { writer.uint64(1, items.count) }
    if items.arrangement != .row { writer.enum(5, items.arrangement) }
    if items.columns != 0 { writer.uint64(6, items.columns) }
    if !items.titlePrefix.isEmpty { writer.string(7, items.titlePrefix) }
    for run in items.sizes {
      writer.message(9) {
        if run.count != 0 { $0.uint64(1, run.count) }
        if run.length.bitPattern != 0 { $0.double(2, run.length) }
      }
    }
  }
}

/// Random nested groups for `WireWriterEquivalenceTests`: every field set or not, strings of
/// mixed-width UTF-8 (empty ones among them) and lengths that move a length prefix past one
/// byte, varints near the 7-bit boundaries, negative enums, doubles with their odd bit patterns.
struct WireSamples {
  var random: SplitMix64

  init(seed: UInt64) { random = SplitMix64(seed: seed) }

  /// A string of up to `limit` characters, each one to four UTF-8 bytes.
  static func text(_ random: inout SplitMix64, upTo limit: Int) -> String {
    let alphabet: [Character] = ["a", "Z", " ", ",", "é", "ß", "€", "語", "🎬", "𝄞"]
    let count = Int.random(in: 0...limit, using: &random)
    return String((0..<count).map { _ in alphabet.randomElement(using: &random) ?? "a" })
  }

  mutating func text() -> String {
    Self.text(&random, upTo: Int.random(in: 0...9, using: &random) == 0 ? 200 : 8)
  }

  mutating func chance() -> Bool { Int.random(in: 0..<3, using: &random) == 0 }

  mutating func varint() -> UInt64 {
    let bits = UInt64(7 * Int.random(in: 1...9, using: &random))
    let near = (UInt64(1) << bits) &+ UInt64(bitPattern: Int64.random(in: -2...1, using: &random))
    return Bool.random(using: &random) ? near : random.next() >> (random.next() % 64)
  }

  mutating func double() -> Double {
    let odd: [Double] = [0, -0.0, .nan, -.infinity, Double(bitPattern: 0x7FF0_0000_0000_0002)]
    if chance() { return odd.randomElement(using: &random) ?? 0 }
    return Double(bitPattern: random.next())
  }

  /// An enum's raw value: a known case, or an unrecognised one (negative ones included).
  mutating func rawEnum() -> Int {
    chance() ? Int(Int32(truncatingIfNeeded: random.next())) : Int.random(in: 0...2, using: &random)
  }

  mutating func group(depth: Int) throws -> Tenfoot_V1_Group {
    var group = Tenfoot_V1_Group()
    if chance() || depth == 0 { group.id = text() }
    if chance() { group.items = (0..<Int.random(in: 1...4, using: &random)).map { _ in text() } }
    if depth < 4, chance() {
      group.groups = try (0..<Int.random(in: 1...3, using: &random)).map { _ in
        try self.group(depth: depth + 1)
      }
    }
    group.trapsFocus = chance()
    group.remembersLastFocused = chance()
    if chance() { group.preferredFocus = text() }
    group.selectionFollowsFocus = chance()
    if chance() { group.search = .init(rawValue: rawEnum()) ?? .unspecified }
    if chance() { group.scroll = .init(rawValue: rawEnum()) ?? .none }
    if chance() {
      group.viewport = .with {
        $0.x = double()
        $0.height = double()
      }
    }
    if chance() { group.scrollMargin = double() }
    group.disabled = chance()
    if chance() { group.navigation = .init(rawValue: rawEnum()) ?? .unspecified }
    group.revealOnPointer = chance()
    if chance() { group.accessibilityLabel = text() }
    if chance() {
      group.virtual.count = varint()
      if chance() { group.virtual.arrangement = .init(rawValue: rawEnum()) ?? .row }
      if chance() { group.virtual.columns = varint() }
      if chance() { group.virtual.titlePrefix = text() }
      for _ in 0..<Int.random(in: 0...3, using: &random) {
        group.virtual.sizes.append(
          .with {
            $0.count = varint()
            $0.length = double()
          })
      }
    }
    if depth == 0, chance() {
      // An unknown field kept from decoding: a varint under field 999.
      var bytes: [UInt8] = try group.serializedBytes()
      bytes += [0xB8, 0x3E, 0x96, 0x01]
      group = try Tenfoot_V1_Group(serializedBytes: bytes)
    }
    return group
  }
}
