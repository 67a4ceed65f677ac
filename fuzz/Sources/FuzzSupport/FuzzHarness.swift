import BrokerDomain
import FocusEngine
import Foundation
import ScreenCore
import TenFootProtocol

@testable import BrokerCore

/// What each libFuzzer target does with one input, in the order the broker does it. Every
/// path must end in a value or a typed error: a crash, a trap (overflow, out-of-range index,
/// failed precondition) or a hang is a bug, and libFuzzer stops with the input that caused it.
/// Deterministic: each input starts from the same state, so a crashing input reproduces alone.
public enum FuzzHarness {
  /// A broker with screen `main` registered by the committed seed
  /// `fuzz/corpus/envelope/seed-register.bin` (a grid with nested, trapping and scrolling
  /// groups, a guide, a text field and a label), copied for each input so requests for a live screen
  /// (input, patches, focus, debug) reach the engine.
  static let registered: WireBroker = {
    let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("corpus/envelope/seed-register.bin")
    var state = WireBroker(epoch: 1, name: "fuzz")
    let envelope = FileManager.default.contents(atPath: seed.path).flatMap {
      try? Tenfoot_V1_Envelope.decode([UInt8]($0))
    }
    precondition(envelope != nil, "fuzz: cannot read the register seed \(seed.path)")
    if let envelope, case .ack = state.handle(envelope, at: startedAt).reply {
      return state
    }
    preconditionFailure("fuzz: the register seed \(seed.path) is not accepted")
  }()

  /// When the seed registered (the broker's clock, as data).
  static let startedAt = BrokerInstant.origin + .seconds(1)

  /// The ROUTER identity the requests come from (libzmq's generated form: 0, then 4 bytes).
  static let peer: [UInt8] = [0, 0x80, 0x00, 0x41, 0xA7]

  /// The screen's delta lane (`DeltaFrame`) takes only what the hand decoder takes, and a
  /// screen showing the state before it ends where SwiftProtobuf's delta takes it (a NaN is
  /// never equal to itself: frames that print one are not compared).
  static func deltaLane(_ bytes: [UInt8]) {
    guard let lane = DeltaFrame(bytes) else { return }
    precondition(
      Tenfoot_V1_Envelope.decodedDelta(bytes) != nil,
      "fuzz: the delta lane took a frame the hand decoder declines")
    guard case .delta(let delta)? = (try? Tenfoot_V1_Envelope(serializedBytes: bytes))?.body else {
      preconditionFailure("fuzz: the delta lane took a frame SwiftProtobuf declines")
    }
    var snapshot = Tenfoot_V1_ScreenState()
    snapshot.epoch = delta.epoch
    snapshot.seq = delta.seq &- 1
    var generic = StateSync(screen: "main")
    _ = generic.apply(snapshot: snapshot)
    var viaLane = generic
    let expected = generic.apply(delta: delta)
    let action = viaLane.apply(delta: lane)
    precondition(
      action == expected || "\(expected)".contains("nan"),
      "fuzz: the delta lane applies differently")
  }

  /// The control path: decode an envelope, check its limits, let the broker handle it (with
  /// screen `main` registered) and encode the reply and every publication, as `Broker` does.
  public static func envelope(_ bytes: [UInt8]) {
    // The hand-written key input decoder answers only as SwiftProtobuf does.
    if let keyInput = Tenfoot_V1_Envelope.decodedKeyInput(bytes) {
      precondition(
        keyInput == (try? Tenfoot_V1_Envelope(serializedBytes: bytes)),
        "fuzz: decodedKeyInput differs from SwiftProtobuf")
    }
    // So does the delta decoder (a NaN is never equal to itself: compared as text, which
    // also writes a map in key order).
    if let delta = Tenfoot_V1_Envelope.decodedDelta(bytes) {
      let reference = try? Tenfoot_V1_Envelope(serializedBytes: bytes)
      precondition(
        delta == reference || delta.textFormatString() == reference?.textFormatString(),
        "fuzz: decodedDelta differs from SwiftProtobuf")
    }
    deltaLane(bytes)
    guard let envelope = try? Tenfoot_V1_Envelope.decode(bytes) else { return }
    _ = envelope.bodyName
    if let problem = InputLimits.problem(envelope) {
      _ = reply(.error(problem), to: envelope)
      return
    }
    var state = registered
    let outcome = state.handle(envelope, peer: peer, at: startedAt + .seconds(1))
    _ = reply(outcome.reply, to: envelope)
    for (_, publication) in outcome.outgoing {
      if case .change(let change) = publication {
        // The broker writes a step's delta from the domain's change: the same bytes as the
        // StateDelta made from it.
        var writer = WireWriter()
        change.writeDelta(to: &writer)
        precondition(
          writer.bytes == (try? Tenfoot_V1_StateDelta(change).serializedBytes()),
          "fuzz: the delta written from the change differs from SwiftProtobuf")
      }
      _ = reply(publication.body, to: envelope)
    }
  }

  /// The JSON layout loader, then the engine on the layout it accepted.
  public static func layoutJSON(_ bytes: [UInt8]) {
    guard let layout = try? LayoutFile.decode(Data(bytes)) else { return }
    exercise(layout)
  }

  /// The wire layout loader as `RegisterScreen` reaches it: decode, limits, conversion,
  /// validation, then the engine on the layout it accepted, fresh and replacing a live one.
  public static func layoutWire(_ bytes: [UInt8]) {
    guard let wire = try? Tenfoot_V1_Layout(serializedBytes: bytes) else { return }
    var envelope = Tenfoot_V1_Envelope()
    envelope.protocolVersion = WireProtocol.version
    envelope.body = .registerScreen(
      .with {
        $0.screenID = "main"; $0.layout = wire
      })
    guard InputLimits.problem(envelope) == nil else { return }
    let layout = Layout(wire: wire)
    guard (try? layout.validate()) != nil else { return }
    _ = Tenfoot_V1_Layout(layout)
    exercise(layout)
    var state = registered
    _ = state.handle(envelope, at: startedAt + .seconds(1))
  }

  /// Focus state from a valid layout, then every kind of move and a select press.
  static func exercise(_ layout: Layout) {
    guard var focus = try? FocusState(layout: layout) else { return }
    for direction in Direction.allCases {
      reduce(&focus, .move(direction))
    }
    reduce(&focus, .tab(.next))
    reduce(&focus, .tab(.previous))
    reduce(&focus, .selectDown)
    reduce(&focus, .selectUp)
  }

  /// The reply envelope the broker would send, encoded.
  static func reply(_ body: Tenfoot_V1_Envelope.OneOf_Body, to request: Tenfoot_V1_Envelope)
    -> [UInt8]
  {
    var reply = Tenfoot_V1_Envelope()
    reply.protocolVersion = WireProtocol.version
    reply.sender = "fuzz"
    reply.replyTo = request.seq
    reply.body = body
    let bytes = reply.encoded()
    // The broker encodes replies and publications from their parts (acks and deltas by hand):
    // byte for byte SwiftProtobuf's encoding.
    precondition(
      Tenfoot_V1_Envelope.encoded(
        sender: reply.sender, seq: 0, sentAtNanoseconds: 0, replyTo: reply.replyTo, body: body)
        == bytes,
      "fuzz: the hand-written encoding differs from SwiftProtobuf")
    return bytes
  }
}
