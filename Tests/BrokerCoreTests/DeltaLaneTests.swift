import BrokerDomain
import FocusEngine
import ScreenCore
import SwiftProtobuf
import TenFootProtocol
import TestSupport
import Testing

@testable import BrokerCore

/// A screen applies a delta in the usual shape straight from its frame's bytes (`DeltaFrame`,
/// `StateSync.apply(delta: DeltaFrame)`): the lane must take a frame exactly when the hand
/// decoder does and every effect is one the screen knows, and then give the frame (and the
/// action) the generic path gives: SwiftProtobuf's `StateDelta` applied. Deltas as the broker
/// writes them, as SwiftProtobuf writes random messages, and mutated frames.
@Suite("Deltas applied straight from their frames match the generic path")
struct DeltaLaneTests {
  /// A screen showing a snapshot at `epoch` and `seq`, with some state a delta may change.
  static func synced(epoch: UInt64, seq: UInt64) -> StateSync {
    var snapshot = Tenfoot_V1_ScreenState()
    snapshot.screenID = "living-room"
    snapshot.epoch = epoch
    snapshot.seq = seq
    snapshot.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 2))
    snapshot.focused = "r0c0"
    snapshot.text = ["search": "old", "r0c1": "kept"]
    snapshot.scroll = [Tenfoot_V1_ScrollOffset(group: "row0", offset: Point(x: 3, y: 4))]
    var sync = StateSync(screen: "living-room")
    _ = sync.apply(snapshot: snapshot)
    return sync
  }

  /// Whether two actions are the same, a NaN (never equal to itself) matching a NaN.
  static func same(_ one: StateSync.Action, _ other: StateSync.Action) -> Bool {
    if one == other { return true }
    guard case .render(let left) = one, case .render(let right) = other else { return false }
    return withoutNaN(left) == withoutNaN(right)
  }

  /// `frame` with every NaN a delta can bring replaced by a number.
  static func withoutNaN(_ frame: ScreenFrame) -> ScreenFrame {
    func fixed(_ value: Double) -> Double { value.isNaN ? 424_242 : value }
    func fixed(_ point: Point) -> Point { Point(x: fixed(point.x), y: fixed(point.y)) }
    var frame = frame
    frame.scroll = frame.scroll.mapValues(fixed)
    if var parallax = frame.parallax {
      parallax.rotateX = fixed(parallax.rotateX)
      parallax.rotateY = fixed(parallax.rotateY)
      parallax.scale = fixed(parallax.scale)
      parallax.translate = parallax.translate.map(fixed)
      parallax.shadow = Parallax.Shadow(
        radius: fixed(parallax.shadow.radius), offsetY: fixed(parallax.shadow.offsetY),
        opacity: fixed(parallax.shadow.opacity))
      parallax.specular = fixed(parallax.specular)
      frame.parallax = parallax
    }
    frame.events = frame.events.map { event in
      guard case .scrolled(let group, let offset) = event else { return event }
      return .scrolled(group: group, offset: fixed(offset))
    }
    return frame
  }

  /// Compares the two paths on `bytes`; returns whether the lane took the frame.
  static func compare(_ bytes: [UInt8]) throws -> Bool {
    let lane = DeltaFrame(bytes)
    var known = false
    if case .delta(let delta)? = Tenfoot_V1_Envelope.decodedDelta(bytes)?.body {
      known = delta.effects.allSatisfy { FocusEffect(wire: $0) != nil }
    }
    try #require((lane != nil) == known, "\(bytes)")
    guard let lane else { return false }
    let envelope = try Tenfoot_V1_Envelope(serializedBytes: bytes)
    guard case .delta(let delta) = envelope.body else {
      Issue.record("not a delta: \(bytes)")
      return true
    }
    #expect(lane.screenID == delta.screenID && lane.epoch == delta.epoch)
    #expect(lane.cause == FocusCause(sender: delta.cause.sender, sequence: delta.cause.seq))
    // Applied next in line, and (a gap, an old one, another epoch) out of line.
    for (epoch, seq) in [
      (delta.epoch, delta.seq &- 1), (delta.epoch, delta.seq), (delta.epoch &+ 1, 0),
      (delta.epoch, delta.seq &- 2),
    ] {
      var generic = synced(epoch: epoch, seq: seq)
      var viaLane = generic
      let expected = generic.apply(delta: delta)
      let action = viaLane.apply(delta: lane)
      try #require(same(action, expected), "\(bytes): \(action) ≠ \(expected)")
    }
    return true
  }

  /// Random deltas: as the broker writes them (from random changes), or as SwiftProtobuf
  /// writes them after a random wire-level change (an unknown heading, state or announcement
  /// part, a rarer effect, no cause).
  struct Samples {
    var changes: ChangeSamples
    var bytes: KeyInputLaneTests.Samples

    init(seed: UInt64) {
      changes = ChangeSamples(seed: seed)
      bytes = KeyInputLaneTests.Samples(random: SplitMix64(seed: seed ^ 0x5A5A))
    }

    mutating func frame() throws -> [UInt8] {
      var change = changes.change()
      // Mostly the moves the lane is for: no pointer, a move's effects.
      if bytes.chance(70) {
        change.pointer = nil
        change.effects.removeAll { effect in
          switch effect {
          case .focusChanged, .movementFailed, .highlighted, .activated, .scrolled: false
          default: true
          }
        }
      }
      if bytes.chance(50) {
        var writer = WireWriter()
        Tenfoot_V1_Envelope.write(
          sender: bytes.chance(80) ? changes.string() : "", seq: bytes.uint64(),
          sentAtNanoseconds: bytes.uint64(), bodyField: Tenfoot_V1_Envelope.deltaField,
          to: &writer
        ) { change.writeDelta(to: &$0) }
        return writer.bytes
      }
      var delta = Tenfoot_V1_StateDelta(change)
      switch bytes.random.below(8) {
      case 0 where !delta.effects.isEmpty:
        delta.effects[0].movementFailed = bytes.pick([.unspecified, .UNRECOGNIZED(77), .up])
      case 1 where !delta.changed.isEmpty:
        delta.changed[0].state = bytes.pick([.unspecified, .UNRECOGNIZED(9), .selected])
      case 2:
        let kind: Tenfoot_V1_AnnouncementKind = bytes.pick([.unspecified, .hint])
        delta.announcement.parts.append(.with { $0.kind = kind })
      case 3: delta.clearCause()
      case 4:
        let next = changes.string()
        delta.effects.append(.with { $0.focusChanged.next = next })
      default: break
      }
      return try Tenfoot_V1_Envelope(
        sender: changes.string(), seq: bytes.uint64(), sentAtNanoseconds: bytes.uint64(),
        body: .delta(delta)
      ).serializedBytes()
    }
  }

  @Test("random deltas, as the broker and SwiftProtobuf write them")
  func randomDeltas() throws {
    var samples = Samples(seed: 0xDE17A)
    var (taken, declined) = (0, 0)
    for _ in 0..<4000 {
      if try Self.compare(try samples.frame()) { taken += 1 } else { declined += 1 }
    }
    #expect(taken > 1500 && declined > 500, "\(taken) taken, \(declined) declined")
  }

  @Test("mutated frames: the lane takes what it can, and agrees")
  func mutatedFrames() throws {
    var samples = Samples(seed: 0xBADD)
    var (taken, declined) = (0, 0)
    for _ in 0..<10_000 {
      var bytes = try samples.frame()
      for _ in 0..<(1 + samples.bytes.random.below(3)) { samples.bytes.mutate(&bytes) }
      if try Self.compare(bytes) { taken += 1 } else { declined += 1 }
    }
    #expect(taken > 300 && declined > 3000, "\(taken) taken, \(declined) declined")
  }

  @Test("deltas buffered before the snapshot, in either form, apply as the generic ones do")
  func pendingDeltas() throws {
    var samples = Samples(seed: 0x9E4D)
    var compared = 0
    for round in 0..<200 {
      var generic = StateSync(screen: "living-room")
      var viaLane = generic
      let snapshotSeq = UInt64(10 + round % 3)
      for seq in UInt64(9)..<UInt64(16) {
        // A broker-written move, or something the lane declines.
        var change = samples.changes.change()
        change.epoch = 5
        change.seq = round % 7 == 0 && seq == 13 ? 14 : seq
        if samples.bytes.chance(80) { change.pointer = nil }
        change.effects.removeAll { _ in samples.bytes.chance(50) }
        var writer = WireWriter()
        Tenfoot_V1_Envelope.write(
          sender: "broker", seq: seq, sentAtNanoseconds: 1,
          bodyField: Tenfoot_V1_Envelope.deltaField, to: &writer
        ) { change.writeDelta(to: &$0) }
        let envelope = try Tenfoot_V1_Envelope(serializedBytes: writer.bytes)
        guard case .delta(let delta) = envelope.body else {
          Issue.record("not a delta")
          return
        }
        let expected = generic.apply(delta: delta)
        let action =
          if let lane = DeltaFrame(writer.bytes) {
            viaLane.apply(delta: lane)
          } else {
            viaLane.apply(delta: delta)
          }
        try #require(Self.same(action, expected), "round \(round), seq \(seq)")
        if seq == 12 {
          // The snapshot arrives after three deltas were buffered.
          var snapshot = Tenfoot_V1_ScreenState()
          snapshot.epoch = 5
          snapshot.seq = snapshotSeq
          snapshot.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 2))
          let expected = generic.apply(snapshot: snapshot)
          let action = viaLane.apply(snapshot: snapshot)
          try #require(Self.same(action, expected), "round \(round): snapshot")
          compared += 1
        }
      }
    }
    #expect(compared == 200)
  }
}
