import FocusEngine
import SwiftProtobuf
import TenFootProtocol
import Testing

@testable import BrokerCore
@testable import BrokerDomain

/// The broker writes a step's delta straight from the domain's `StateChange`
/// (`StateChange.writeDelta`, `FocusEngine+WireWriter.swift`) instead of making the
/// `StateDelta` message first: these tests pin those bytes to SwiftProtobuf's encoding of the
/// message `Tenfoot_V1_StateDelta(change)` makes, for random changes and for every effect kind.
/// (`PressEncodingTests` pins the messages' field lists.)
@Suite("A delta written from the domain's change matches the StateDelta made from it")
struct DirectDeltaEncodingTests {
  /// The bytes `writeDelta` writes and the bytes SwiftProtobuf writes for the same change.
  static func encodings(_ change: StateChange) throws -> (direct: [UInt8], made: [UInt8]) {
    var writer = WireWriter()
    change.writeDelta(to: &writer)
    return (writer.bytes, try Tenfoot_V1_StateDelta(change).serializedBytes())
  }

  @Test("random changes: the same bytes, and the envelope around them decodes to the delta")
  func randomChanges() throws {
    var samples = ChangeSamples(seed: 0xD1EC7)
    for index in 0..<3000 {
      let change = samples.change()
      let (direct, made) = try Self.encodings(change)
      try #require(direct == made, "change \(index): \(change)")
    }
    // In its envelope, as the broker publishes it.
    let change = samples.change()
    var writer = WireWriter()
    Tenfoot_V1_Envelope.write(
      sender: "broker", seq: 9, sentAtNanoseconds: 12, bodyField: Tenfoot_V1_Envelope.deltaField,
      to: &writer
    ) { change.writeDelta(to: &$0) }
    let envelope = try Tenfoot_V1_Envelope(serializedBytes: writer.bytes)
    #expect(envelope.seq == 9 && envelope.sender == "broker")
    #expect(envelope.body == .delta(Tenfoot_V1_StateDelta(change)))
  }

  @Test("every effect kind alone, and a change with nothing optional set")
  func everyEffect() throws {
    var samples = ChangeSamples(seed: 7)
    for effect in samples.everyEffect() {
      var change = samples.bare()
      change.effects = [effect]
      let (direct, made) = try Self.encodings(change)
      #expect(direct == made, "\(effect)")
    }
    let (direct, made) = try Self.encodings(samples.bare())
    #expect(direct == made)
  }
}

/// Random domain changes: every optional part present or not, strings of the lengths that
/// move a length prefix past one byte, doubles including -0.0.
struct ChangeSamples {
  var random: SplitMix64

  init(seed: UInt64) { random = SplitMix64(seed: seed) }

  mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
  mutating func chance() -> Bool { below(2) == 0 }
  mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }

  mutating func string() -> String {
    pick([
      "", "r0c1", "menu-bar/Settings", "é📺 Mañana 東京", String(repeating: "x", count: 127),
      String(repeating: "🎬", count: 40), "living-room",
    ])
  }

  mutating func double() -> Double { pick([0, -0.0, 1, -2.5, 1e300, 0.1, 1.1]) }

  mutating func point() -> Point { Point(x: double(), y: double()) }

  mutating func heading() -> FocusHeading { pick(FocusHeading.allCases) }

  /// One of each effect kind, with random contents.
  mutating func everyEffect() -> [FocusEffect] {
    [
      .focusChanged(
        FocusUpdateContext(
          previous: chance() ? string() : nil, next: chance() ? string() : nil,
          heading: heading(),
          cause: chance() ? FocusCause(sender: string(), sequence: random.next() >> 3) : nil)),
      .movementFailed(heading()), .highlighted(string()), .activated(string()),
      .selectionChanged(id: string(), selected: chance()),
      .scrolled(group: string(), offset: point()),
      .focusRequestDenied(
        FocusRequestError(
          pick(FocusRequestError.Reason.allCases), target: string(), message: string())),
      .textChanged(id: string(), value: string()), .back, .home,
      .playPause(chance() ? string() : nil), .contextMenu(string()),
      .doubleTap(pick(RemoteButton.allCases)),
      .itemsInView(group: string(), range: below(100)..<(100 + below(100))),
    ]
  }

  /// A change with no optional part and no list entries.
  mutating func bare() -> StateChange {
    StateChange(
      screen: "", epoch: 0, seq: 0, focused: nil, changed: [], effects: [], parallax: nil,
      text: [:], editingText: false, cause: FocusCause(sender: "", sequence: 0),
      announcement: nil)
  }

  mutating func change() -> StateChange {
    var change = bare()
    change.screen = string()
    change.epoch = random.next() >> UInt64(below(64))
    change.seq = random.next() >> UInt64(below(64))
    change.focused = chance() ? string() : nil
    change.changed = (0..<below(4)).map { _ in
      ItemStateChange(id: string(), state: pick(FocusDisplayState.allCases))
    }
    let effects = everyEffect()
    change.effects = (0..<below(4)).map { _ in pick(effects) }
    change.cause = FocusCause(sender: string(), sequence: random.next() >> UInt64(below(64)))
    if chance() {
      change.parallax = Parallax(
        item: string(), rotateX: double(), rotateY: double(), scale: double(),
        translate: (0..<below(3)).map { _ in point() },
        shadow: Parallax.Shadow(radius: double(), offsetY: double(), opacity: double()),
        specular: point())
    }
    for _ in 0..<below(3) { change.text[string()] = string() }
    change.editingText = chance()
    if chance() {
      change.announcement = Announcement(
        parts: (0..<below(5)).map { _ in
          AnnouncementPart(pick(AnnouncementPart.Kind.allCases), string())
        },
        interrupt: chance())
    }
    if chance() {
      change.pointer = PointerPresentation(
        position: point(), visible: chance(), shape: string(),
        effect: pick(PointerEffectStyle.allCases), target: chance() ? string() : nil)
    }
    return change
  }
}
