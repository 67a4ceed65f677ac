import SwiftProtobuf
import TenFootProtocol
import Testing

/// A delta is decoded by hand (`Envelope+Delta.swift`) when its bytes have the broker's shape:
/// whatever it returns must be what SwiftProtobuf decodes, and what it declines SwiftProtobuf
/// decodes (or refuses) through `decode(_:)`.
@Suite("Hand-written delta decoding matches SwiftProtobuf")
struct DeltaDecodingTests {
  /// An envelope holding a random delta; with `movesOnly`, without the parts the hand-written
  /// path leaves to SwiftProtobuf (a pointer, the effects a move does not make).
  static func envelope(_ samples: inout PressMessageSamples, movesOnly: Bool)
    -> Tenfoot_V1_Envelope
  {
    var delta = samples.delta()
    if movesOnly {
      delta.clearPointer()
      delta.effects.removeAll { effect in
        switch effect.kind {
        case .focusChanged, .movementFailed, .highlighted, .activated, .scrolled: false
        default: true
        }
      }
    }
    return Tenfoot_V1_Envelope(
      sender: samples.chance(90) ? samples.string() : "", seq: samples.uint64(),
      sentAtNanoseconds: samples.uint64(), replyTo: samples.uint64(), body: .delta(delta))
  }

  /// Whether two decodings are the same message: equal, or (a NaN is never equal to itself)
  /// the same in text format (which writes a map in key order, and NaN as `nan`).
  static func same(_ one: Tenfoot_V1_Envelope?, _ other: Tenfoot_V1_Envelope?) -> Bool {
    if one == other { return true }
    guard let one, let other else { return false }
    return one.textFormatString() == other.textFormatString()
  }

  @Test("random deltas: what the hand-written path reads is what SwiftProtobuf reads")
  func randomDeltas() throws {
    let read = try HandDecodingChecks.random(
      seed: 0xDE1, count: 3000, make: { Self.envelope(&$0, movesOnly: $1 % 2 == 0) },
      decoded: Tenfoot_V1_Envelope.decodedDelta)
    // Enum values past Int32.max (negative ones) and invalid strings are declined; most of
    // the moves-only half must still take the hand-written path.
    #expect(read > 600, "\(read) of 3,000 random deltas read by hand")
  }

  @Test("a move's delta as the broker writes it is read by hand")
  func brokerShape() throws {
    // The encoding tests' delta (a move, a bump), with what a scrolling move adds.
    let sample = EncodingTests.bodies.first { $0.0 == "delta" }?.1
    guard case .delta(var delta) = sample else {
      Issue.record("EncodingTests.bodies has no delta")
      return
    }
    delta.effects[0].focusChanged.cause = delta.cause
    delta.effects.append(
      .with {
        $0.scrolled = .with {
          $0.group = "row0"
          $0.x = -120.5
        }
      })
    delta.scroll = [
      .with {
        $0.group = "row0"; $0.x = -120.5
      }
    ]
    delta.parallax = .with {
      $0.item = "r0c1"
      $0.scale = 1.1
      $0.translate = [.with { $0.x = 1 }, .with { $0.y = -2 }]
      $0.shadow = .with {
        $0.radius = 20; $0.opacity = 0.5
      }
      $0.specular = .with { $0.x = 0.5 }
    }
    delta.text = ["search": "Mañana 東京"]
    delta.announcement = .with {
      $0.parts = [
        .with {
          $0.kind = .label; $0.text = "Dune"
        }, .with { $0.kind = .position },
      ]
      $0.interrupt = true
      $0.text = "Dune"
    }
    let envelope = Tenfoot_V1_Envelope(
      sender: "broker", seq: 99, sentAtNanoseconds: 5, body: .delta(delta))
    let bytes: [UInt8] = try envelope.serializedBytes()
    #expect(Tenfoot_V1_Envelope.decodedDelta(bytes) == envelope)
  }

  /// Deltas with what a screen has no use for and `DeltaFrame` keeps aside for `decodedDelta`:
  /// unknown display states, headings and announcement kinds among known ones, an announcement
  /// with no known part, a cause, shadow or specular present but empty, or absent.
  static var keptAside: [(name: String, delta: Tenfoot_V1_StateDelta, lane: Bool)] {
    var states = Tenfoot_V1_StateDelta()
    states.changed = [
      .with { $0.id = "a" },
      .with {
        $0.id = "b"; $0.state = .focused
      },
      .with {
        $0.id = "c"; $0.state = .UNRECOGNIZED(9)
      },
      .with {
        $0.id = "d"; $0.state = .unfocused
      }, .with { $0.id = "e" },
    ]
    states.effects = [.with { $0.highlighted = "b" }]
    var headings = Tenfoot_V1_StateDelta()
    headings.effects = [
      .with { $0.movementFailed = .UNRECOGNIZED(77) }, .with { $0.movementFailed = .programmatic },
      .with {
        $0.focusChanged = .with {
          $0.next = "b"
          $0.cause = .with { $0.sender = "r" }
        }
      },
      .with { $0.focusChanged.heading = .left },
    ]
    var absent = Tenfoot_V1_StateDelta()
    absent.screenID = "tv"
    absent.parallax = .with { $0.item = "b" }
    var empty = absent
    empty.cause = Tenfoot_V1_Cause()
    empty.parallax.shadow = Tenfoot_V1_Shadow()
    empty.parallax.specular = Tenfoot_V1_Point()
    empty.announcement = Tenfoot_V1_Announcement()
    var kinds = Tenfoot_V1_StateDelta()
    kinds.announcement = .with {
      $0.parts = [
        .with { $0.text = "?" },
        .with {
          $0.kind = .label; $0.text = "B"
        },
        .with {
          $0.kind = .UNRECOGNIZED(40); $0.text = "!"
        }, .with { $0.kind = .hint },
        .with { $0.kind = .UNRECOGNIZED(41) },
      ]
      $0.text = "B. "
    }
    var unknownOnly = Tenfoot_V1_StateDelta()
    unknownOnly.announcement = .with {
      $0.parts = [.with { $0.text = "?" }]
      $0.interrupt = true
      $0.text = "?"
    }
    return [
      ("states", states, true), ("headings", headings, false), ("absent parts", absent, true),
      ("empty parts", empty, true), ("announcement kinds", kinds, true),
      ("no known announcement part", unknownOnly, true),
    ]
  }

  @Test("what a screen has no use for is read by hand all the same, as SwiftProtobuf reads it")
  func keptAside() throws {
    for (name, delta, lane) in Self.keptAside {
      let envelope = Tenfoot_V1_Envelope(
        sender: "broker", seq: 3, sentAtNanoseconds: 4, replyTo: 5, body: .delta(delta))
      let bytes: [UInt8] = try envelope.serializedBytes()
      #expect(Tenfoot_V1_Envelope.decodedDelta(bytes) == envelope, "\(name)")
      #expect(KeyInputDecodingTests.reference(bytes) == envelope, "\(name)")
      // The screen's lane declines only effects of headings it does not know.
      #expect((DeltaFrame(bytes) != nil) == lane, "\(name)")
    }
  }

  @Test("mutated frames: the hand-written path answers as SwiftProtobuf does, or declines")
  func mutatedFrames() throws {
    let declined = try HandDecodingChecks.mutated(
      seed: 0xF4D, count: 10_000, make: { Self.envelope(&$0, movesOnly: true) },
      decoded: Tenfoot_V1_Envelope.decodedDelta)
    #expect(declined > 2000, "\(declined) of 10,000 mutated frames declined")
  }

  @Test("other bodies and shapes are declined and decoded by SwiftProtobuf")
  func otherShapes() throws {
    var pointer = Tenfoot_V1_StateDelta()
    pointer.pointer.visible = true
    var rareEffect = Tenfoot_V1_StateDelta()
    rareEffect.effects = [.with { $0.back = true }]
    var others: [[UInt8]] = [
      try Tenfoot_V1_Envelope(sender: "b", seq: 1, sentAtNanoseconds: 2, body: .delta(pointer))
        .serializedBytes(),
      try Tenfoot_V1_Envelope(sender: "b", seq: 1, sentAtNanoseconds: 2, body: .delta(rareEffect))
        .serializedBytes(),
      [],
    ]
    others += try EncodingTests.frames(except: "delta")
    for bytes in others {
      #expect(Tenfoot_V1_Envelope.decodedDelta(bytes) == nil, "\(bytes.prefix(24))")
      #expect((try? Tenfoot_V1_Envelope.decode(bytes)) == KeyInputDecodingTests.reference(bytes))
    }
  }
}
