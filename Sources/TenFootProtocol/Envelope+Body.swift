import SwiftProtobuf

extension Tenfoot_V1_Envelope {
  /// An envelope of the current protocol version carrying `body`.
  public init(
    sender: String, seq: UInt64, sentAtNanoseconds: UInt64, replyTo: UInt64 = 0,
    body: Tenfoot_V1_Envelope.OneOf_Body
  ) {
    self.init()
    protocolVersion = WireProtocol.version
    self.sender = sender
    self.seq = seq
    sentAtNs = sentAtNanoseconds
    self.replyTo = replyTo
    self.body = body
  }

  /// Decodes one frame; a frame that is not a valid Envelope throws `ProtocolError.malformed`.
  /// A key input, a delta and an ack are read by hand (`decodedKeyInput`, `decodedDelta`,
  /// `decodedAck`), everything else by SwiftProtobuf.
  public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> Tenfoot_V1_Envelope {
    if let envelope = decodedKeyInput(bytes) ?? decodedDelta(bytes) ?? decodedAck(bytes) {
      return envelope
    }
    do {
      return try Tenfoot_V1_Envelope(serializedBytes: bytes)
    } catch {
      throw .malformed("not a tenfoot.v1.Envelope (\(bytes.count) bytes): \(error)")
    }
  }

  /// Encodes to one frame: byte for byte what `serializedBytes()` writes, at about half the
  /// cost.
  ///
  /// SwiftProtobuf computes a nested message's size once for every level above it (a size
  /// pass over the whole envelope, then again for each length prefix while writing), and
  /// repeated message fields take an unspecialised generic path in each pass. Serializing the
  /// body on its own and writing the envelope's five header fields and the body's tag and
  /// length around it by hand skips the outermost pass and a copy of the envelope's storage.
  /// The bytes are the same because protobuf writes fields in field-number order, omits proto3
  /// scalars that hold their default, and the body fields (10 and up) come after the header
  /// fields (1–5); `EncodingTests` holds this to SwiftProtobuf's output for every body kind.
  public func encoded() -> [UInt8] {
    guard unknownFields.data.isEmpty, let body else { return standardEncoded() }
    if case .input(let input) = body, input.isKeyInput {
      // A press or release, every remote's message: written in place in one writer, not
      // written into one, copied out and spliced into another.
      var writer = WireWriter(capacity: 64 + sender.utf8.count)
      Self.writeHeader(
        protocolVersion: protocolVersion, sender: sender, seq: seq, sentAtNs: sentAtNs,
        replyTo: replyTo, to: &writer)
      writer.message(13) { input.write(to: &$0) }
      return writer.bytes
    }
    guard let (fieldNumber, bodyBytes) = Self.encodedBody(body) else { return standardEncoded() }
    return encoded(bodyField: fieldNumber, bodyBytes)
  }

  /// Encodes this envelope's header fields with a body encoded beforehand: `bodyBytes`, the
  /// encoding of the body message whose field number in `Envelope` is `bodyField` (10 and up).
  /// The bytes are those `encoded()` writes for the envelope with that body set; `body` itself
  /// is not written. For a large body encoded on another thread (a registration's snapshot).
  public func encoded(bodyField fieldNumber: Int, _ bodyBytes: [UInt8]) -> [UInt8] {
    Self.encoded(
      protocolVersion: protocolVersion, sender: sender, seq: seq, sentAtNs: sentAtNs,
      replyTo: replyTo, bodyField: fieldNumber, bodyBytes)
  }

  /// The bytes `encoded()` writes for an envelope of the current protocol version with these
  /// header fields and `body`, without building the envelope: a reply or publication is
  /// encoded straight from its parts (no envelope storage made, no body copied in and out of
  /// it). SwiftProtobuf's own encoding when `body` is nil.
  public static func encoded(
    sender: String, seq: UInt64, sentAtNanoseconds: UInt64, replyTo: UInt64 = 0,
    body: Tenfoot_V1_Envelope.OneOf_Body?
  ) -> [UInt8] {
    guard let body else {
      var envelope = Tenfoot_V1_Envelope()
      envelope.protocolVersion = WireProtocol.version
      envelope.sender = sender
      envelope.seq = seq
      envelope.sentAtNs = sentAtNanoseconds
      envelope.replyTo = replyTo
      return envelope.standardEncoded()
    }
    var writer = WireWriter(capacity: 128)
    write(
      sender: sender, seq: seq, sentAtNanoseconds: sentAtNanoseconds, replyTo: replyTo,
      body: body, to: &writer)
    return writer.bytes
  }

  /// Writes the bytes `encoded(sender:seq:sentAtNanoseconds:replyTo:body:)` returns into
  /// `writer` (after what it holds), so a caller sending one message after another reuses
  /// one buffer. The press path's bodies, `ack`, `delta` and a key `input`, are written by hand
  /// (`PressMessages+Wire.swift`); the others are serialized by SwiftProtobuf and spliced in.
  public static func write(
    sender: String, seq: UInt64, sentAtNanoseconds: UInt64, replyTo: UInt64 = 0,
    body: Tenfoot_V1_Envelope.OneOf_Body, to writer: inout WireWriter
  ) {
    writeHeader(
      protocolVersion: WireProtocol.version, sender: sender, seq: seq,
      sentAtNs: sentAtNanoseconds, replyTo: replyTo, to: &writer)
    switch body {
    case .ack(let ack): writer.message(ackField) { ack.write(to: &$0) }
    case .delta(let delta): writer.message(16) { delta.write(to: &$0) }
    case .input(let input) where input.isKeyInput: writer.message(13) { input.write(to: &$0) }
    default:
      // Only a body over 2 GiB fails to serialize (proto3 has no required fields): it is
      // left out, and the peer answers an envelope without a body as malformed.
      guard let (fieldNumber, bodyBytes) = encodedBody(body) else { return }
      writer.encoded(fieldNumber, bodyBytes)
    }
  }

  /// Writes an envelope of the current protocol version whose body, field `bodyField`,
  /// `writeBody` writes in place (a body written from its parts, never made as a message).
  public static func write(
    sender: String, seq: UInt64, sentAtNanoseconds: UInt64, replyTo: UInt64 = 0,
    bodyField: Int, to writer: inout WireWriter, body writeBody: (inout WireWriter) -> Void
  ) {
    writeHeader(
      protocolVersion: WireProtocol.version, sender: sender, seq: seq,
      sentAtNs: sentAtNanoseconds, replyTo: replyTo, to: &writer)
    writer.message(bodyField, writeBody)
  }

  /// The header fields 1–5, then the body's tag, length and bytes.
  private static func encoded(
    protocolVersion: UInt32, sender: String, seq: UInt64, sentAtNs: UInt64, replyTo: UInt64,
    bodyField fieldNumber: Int, _ bodyBytes: [UInt8]
  ) -> [UInt8] {
    precondition(fieldNumber >= 10, "body fields are 10 and up, after the header's 1–5")
    // Tags, varints (at most 10 bytes each) and the sender around the body.
    var writer = WireWriter(capacity: 5 * 11 + sender.utf8.count + 2 + 5 + bodyBytes.count)
    writeHeader(
      protocolVersion: protocolVersion, sender: sender, seq: seq, sentAtNs: sentAtNs,
      replyTo: replyTo, to: &writer)
    writer.encoded(fieldNumber, bodyBytes)
    return writer.bytes
  }

  /// The header fields 1–5, each omitted at its default. The body fields (10 and up) follow.
  private static func writeHeader(
    protocolVersion: UInt32, sender: String, seq: UInt64, sentAtNs: UInt64, replyTo: UInt64,
    to writer: inout WireWriter
  ) {
    if protocolVersion != 0 { writer.uint64(1, UInt64(protocolVersion)) }
    if !sender.isEmpty { writer.string(2, sender) }
    if seq != 0 { writer.uint64(3, seq) }
    if sentAtNs != 0 { writer.uint64(4, sentAtNs) }
    if replyTo != 0 { writer.uint64(5, replyTo) }
  }

  /// SwiftProtobuf's own encoding.
  func standardEncoded() -> [UInt8] {
    // Serializing a message built in memory only fails for proto2 required fields, which
    // proto3 does not have; an empty frame would be answered as malformed, never misread.
    (try? serializedBytes()) ?? []
  }

  /// The field number of the `snapshot` body (a `ScreenState`) in `Envelope`.
  public static let snapshotField = 15
  /// The field number of the `ack` body (an `Ack`, the reply to every press) in `Envelope`.
  public static let ackField = 17

  /// The body's field number in `Envelope` and its own encoding by SwiftProtobuf (a key input
  /// never comes here: `encoded()` and `write(...body:to:)` write it in place by hand).
  private static func encodedBody(_ body: Tenfoot_V1_Envelope.OneOf_Body) -> (Int, [UInt8])? {
    do {
      switch body {
      case .hello(let message): return (10, try message.serializedBytes())
      case .welcome(let message): return (11, try message.serializedBytes())
      case .registerScreen(let message): return (12, try message.serializedBytes())
      case .input(let message): return (13, try message.serializedBytes())
      case .snapshotRequest(let message): return (14, try message.serializedBytes())
      case .snapshot(let message): return (snapshotField, try message.serializedBytes())
      case .delta(let message): return (16, try message.serializedBytes())
      case .ack(let message): return (ackField, try message.serializedBytes())
      case .error(let message): return (18, try message.serializedBytes())
      case .heartbeat(let message): return (19, try message.serializedBytes())
      case .patchLayout(let message): return (20, try message.serializedBytes())
      case .focusRequest(let message): return (21, try message.serializedBytes())
      case .debugRequest(let message): return (22, try message.serializedBytes())
      case .debugReport(let message): return (23, try message.serializedBytes())
      case .appReaction(let message): return (24, try message.serializedBytes())
      case .pairRequest(let message): return (30, try message.serializedBytes())
      case .pairChallenge(let message): return (31, try message.serializedBytes())
      case .pairProof(let message): return (32, try message.serializedBytes())
      case .paired(let message): return (33, try message.serializedBytes())
      case .pairingPrompt(let message): return (34, try message.serializedBytes())
      case .openPairing(let message): return (35, try message.serializedBytes())
      case .part(let message): return (MessageParts.partField, try message.serializedBytes())
      }
    } catch {
      return nil  // Falls back to the standard path, which reports nothing either.
    }
  }

  /// A short name of the body for logs ("input", "hello", …).
  public var bodyName: String { Self.name(of: body) }

  /// A short name of `body` for logs, as `bodyName` gives it.
  public static func name(of body: Tenfoot_V1_Envelope.OneOf_Body?) -> String {
    switch body {
    case .hello: "hello"
    case .welcome: "welcome"
    case .registerScreen: "register_screen"
    case .input: "input"
    case .snapshotRequest: "snapshot_request"
    case .snapshot: "snapshot"
    case .delta: "delta"
    case .ack: "ack"
    case .error: "error"
    case .heartbeat: "heartbeat"
    case .patchLayout: "patch_layout"
    case .focusRequest: "focus_request"
    case .debugRequest: "debug_request"
    case .debugReport: "debug_report"
    case .appReaction: "app_reaction"
    case .pairRequest: "pair_request"
    case .pairChallenge: "pair_challenge"
    case .pairProof: "pair_proof"
    case .paired: "paired"
    case .pairingPrompt: "pairing_prompt"
    case .openPairing: "open_pairing"
    case .part: "part"
    case nil: "empty"
    }
  }
}

/// Something wrong with bytes received from the network.
public enum ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The bytes are not a protocol message.
  case malformed(String)

  /// A sentence for people.
  public var description: String {
    switch self {
    case .malformed(let reason): "malformed message: \(reason)"
    }
  }
}
