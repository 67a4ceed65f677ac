import FocusEngine
import SwiftProtobuf
import TenFootProtocol

/// Random `Ack`s and `StateDelta`s for `PressEncodingTests`: every field of every message
/// nested in them present or absent at random, with the values protobuf encodes specially
/// (defaults, varints at their byte-width boundaries, negative enum values, -0.0 and
/// infinities, multi-byte UTF-8, strings and messages of 128 bytes and more, whose lengths take two or
/// three varint bytes).
struct PressMessageSamples {
  var random: SplitMix64

  init(seed: UInt64) { random = SplitMix64(seed: seed) }

  mutating func chance(_ percent: Int = 50) -> Bool { random.below(100) < percent }

  mutating func pick<T>(_ values: [T]) -> T { values[random.below(values.count)] }

  mutating func string() -> String {
    switch random.below(8) {
    case 0: ""
    case 1: "r\(random.below(1000))c\(random.below(1000))"
    case 2: "é📺 Mañana 東京 \u{0}"
    case 3: String(repeating: "x", count: 127 + random.below(3))  // Length 127–129.
    case 4: String(repeating: "🎬", count: 40 + random.below(4000))  // 160 B to 16 KiB.
    default: pick(["living-room", "remote:bench", "home/rail-3", "Play", "a"])
    }
  }

  mutating func uint64() -> UInt64 {
    switch random.below(6) {
    case 0: 0
    case 1: pick([1, 127, 128, 16_383, 16_384, 1 << 35, 1 << 56, 1 << 63, .max])
    default: random.next() >> UInt64(random.below(64))
    }
  }

  mutating func double() -> Double {
    switch random.below(5) {
    case 0: 0
    // No NaN: it is not equal to itself, so a round trip could not compare it
    // (`PressEncodingTests.fullyPopulated` encodes one).
    case 1: pick([-0.0, .infinity, -.infinity, .leastNonzeroMagnitude, -1.5, 1e300])
    default: Double(Int64(bitPattern: random.next()) % 100_000) / 8
    }
  }

  /// An enum's value: its default, a named case, or a number this build does not know
  /// (negative ones, unless `positive`, are written as 10-byte varints).
  mutating func enumValue<E: SwiftProtobuf.Enum & CaseIterable>(positive: Bool = false) -> E {
    let raw =
      switch random.below(6) {
      case 0: 0
      case 1: pick(positive ? [Int(Int32.max), 1000] : [-1, Int(Int32.min), Int(Int32.max), 1000])
      default: random.below(E.allCases.count)
      }
    guard let value = E(rawValue: raw) else { preconditionFailure("\(E.self) has every Int") }
    return value
  }

  mutating func cause() -> Tenfoot_V1_Cause {
    .with {
      if chance() { $0.sender = string() }
      if chance() { $0.seq = uint64() }
    }
  }

  mutating func scrollOffset() -> Tenfoot_V1_ScrollOffset {
    .with {
      if chance() { $0.group = string() }
      if chance() { $0.x = double() }
      if chance() { $0.y = double() }
    }
  }

  mutating func point() -> Tenfoot_V1_Point {
    .with {
      if chance() { $0.x = double() }
      if chance() { $0.y = double() }
    }
  }

  mutating func focusEffect() -> Tenfoot_V1_FocusEffect {
    var effect = Tenfoot_V1_FocusEffect()
    switch random.below(16) {
    case 0: effect.focusChanged = focusUpdate()
    case 1: effect.movementFailed = enumValue()
    case 2: effect.highlighted = string()
    case 3: effect.activated = string()
    case 4:
      effect.selectionChanged = .with {
        if chance() { $0.id = string() }
        if chance() { $0.selected = true }
      }
    case 5: effect.scrolled = scrollOffset()
    case 6:
      effect.focusRequestDenied = .with {
        if chance() { $0.reason = enumValue() }
        if chance() { $0.target = string() }
        if chance() { $0.message = string() }
      }
    case 7: effect.layoutRejected = string()
    case 8:
      effect.textChanged = .with {
        if chance() { $0.id = string() }
        if chance() { $0.value = string() }
      }
    case 9: effect.back = chance()  // A oneof case is written even when false.
    case 10: effect.home = chance()
    case 11: effect.playPause = string()
    case 12: effect.contextMenu = string()
    case 13: effect.doubleTap = enumValue()
    case 14:
      effect.itemsInView = .with {
        if chance() { $0.group = string() }
        if chance() { $0.start = uint64() }
        if chance() { $0.end = uint64() }
      }
    default: break  // No kind set.
    }
    return effect
  }

  mutating func focusUpdate() -> Tenfoot_V1_FocusUpdate {
    var update = Tenfoot_V1_FocusUpdate()
    if chance() { update.previous = string() }
    if chance() { update.next = string() }
    if chance() { update.heading = enumValue() }
    if chance() { update.cause = cause() }
    return update
  }

  mutating func parallax() -> Tenfoot_V1_Parallax {
    var parallax = Tenfoot_V1_Parallax()
    if chance() { parallax.item = string() }
    if chance() { parallax.rotateX = double() }
    if chance() { parallax.rotateY = double() }
    if chance() { parallax.scale = double() }
    parallax.translate = (0..<pick([0, 1, 3, 12])).map { _ in point() }
    if chance() {
      parallax.shadow = .with {
        if chance() { $0.radius = double() }
        if chance() { $0.offsetY = double() }
        if chance() { $0.opacity = double() }
      }
    }
    if chance() { parallax.specular = point() }
    return parallax
  }

  mutating func pointer() -> Tenfoot_V1_PointerState {
    .with {
      if chance() { $0.x = double() }
      if chance() { $0.y = double() }
      if chance() { $0.visible = true }
      if chance() { $0.shape = string() }
      if chance() { $0.effect = enumValue() }
      if chance() { $0.target = string() }
    }
  }

  mutating func announcement() -> Tenfoot_V1_Announcement {
    var announcement = Tenfoot_V1_Announcement()
    for _ in 0..<pick([0, 1, 4]) {
      announcement.parts.append(
        .with {
          if chance() { $0.kind = enumValue() }
          if chance() { $0.text = string() }
        })
    }
    if chance() { announcement.interrupt = true }
    if chance() { announcement.text = string() }
    return announcement
  }

  mutating func effects() -> [Tenfoot_V1_FocusEffect] {
    (0..<pick([0, 1, 2, 5, 20])).map { _ in focusEffect() }
  }

  mutating func ack() -> Tenfoot_V1_Ack {
    var ack = Tenfoot_V1_Ack()
    if chance() { ack.stateSeq = uint64() }
    if chance() { ack.focused = string() }  // Set, even to "": written.
    ack.effects = effects()
    if chance() { ack.screenID = string() }
    if chance() { ack.editingText = true }
    if chance() { ack.app = true }
    return ack
  }

  mutating func delta() -> Tenfoot_V1_StateDelta {
    var delta = Tenfoot_V1_StateDelta()
    if chance() { delta.screenID = string() }
    if chance() { delta.epoch = uint64() }
    if chance() { delta.seq = uint64() }
    if chance() { delta.focused = string() }
    delta.changed = (0..<pick([0, 1, 2, 30])).map { _ in
      .with {
        if chance(80) { $0.id = string() }
        if chance(80) { $0.state = enumValue() }
      }
    }
    delta.effects = effects()
    if chance() { delta.cause = cause() }
    delta.scroll = (0..<pick([0, 1, 3])).map { _ in scrollOffset() }
    if chance() { delta.parallax = parallax() }
    for _ in 0..<pick([0, 1, 3]) { delta.text[string()] = string() }
    if chance() { delta.editingText = true }
    if chance() { delta.pointer = pointer() }
    if chance() { delta.announcement = announcement() }
    return delta
  }
}
