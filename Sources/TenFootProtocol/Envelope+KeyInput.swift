/// The message every press and release sends, an `Envelope` whose body is an `Input` holding
/// a `KeyEvent`, decoded by hand when its bytes have the shape every encoder writes: each
/// field at most once, in field-number order, with its declared wire type, nothing unknown.
/// Anything else (another body, a repeated or unknown field, invalid UTF-8, a value out of
/// its type's range) is left to SwiftProtobuf, so the result is always the message
/// SwiftProtobuf decodes: `KeyInputDecodingTests` compares the two on random and mutated
/// frames.
///
/// Why by hand: the broker decodes one per request, and SwiftProtobuf's generic decoder
/// (unspecialised, with a runtime metadata lookup per optional field) cost about 9,900
/// instructions per request for these 51 bytes, against 4,300 by hand (callgrind,
/// `scripts/bench-instructions`; most of what is left is the generated envelope's storage
/// copied on its first write and the strings made).
extension Tenfoot_V1_Envelope {
  /// The envelope `bytes` hold when they are a key input in the usual shape; nil otherwise
  /// (`decode(_:)` then asks SwiftProtobuf).
  public static func decodedKeyInput(_ bytes: [UInt8]) -> Tenfoot_V1_Envelope? {
    KeyInputFrame(bytes)?.envelope
  }

  /// The envelope `bytes` hold when its header fields come in field-number order, each at most
  /// once, and then its body, field `bodyField`, which `readBody` reads (nil: not in the usual
  /// shape); nil otherwise. The envelope is made only once the body was read: a message of
  /// another kind leaves at its body's tag, having allocated nothing.
  @inline(__always)
  static func decodedByHand(
    _ bytes: [UInt8], bodyField: Int,
    body readBody: (inout WireReader) -> Tenfoot_V1_Envelope.OneOf_Body?
  ) -> Tenfoot_V1_Envelope? {
    guard let (header, body) = readByHand(bytes, bodyField: bodyField, body: readBody) else {
      return nil
    }
    var envelope = Tenfoot_V1_Envelope()
    envelope.protocolVersion = header.version
    envelope.seq = header.seq
    envelope.sentAtNs = header.sentAt
    envelope.replyTo = header.replyTo
    if !header.sender.isEmpty { envelope.sender = header.sender }
    envelope.body = body
    return envelope
  }

  /// An envelope's header fields, read by hand (`readByHand`).
  struct Header {
    var version: UInt32 = 0
    var seq: UInt64 = 0
    var sentAt: UInt64 = 0
    var replyTo: UInt64 = 0
    var sender = ""
  }

  /// The header and the body `bytes` hold in the shape `decodedByHand` reads, the body read by
  /// `readBody` into whatever the caller keeps (a generated body, or plain fields); nil
  /// otherwise. The sender's string is made only once the body was read.
  @inline(__always)
  static func readByHand<Body>(
    _ bytes: [UInt8], bodyField: Int, body readBody: (inout WireReader) -> Body?
  ) -> (Header, Body)? {
    bytes.withUnsafeBufferPointer { buffer -> (Header, Body)? in
      var reader = WireReader(buffer)
      var header = Header()
      var sender: Range<Int>?
      var body: Body?
      var last = 0
      while !reader.atEnd {
        guard let (field, wireType) = reader.tag(), field > last else { return nil }
        last = field
        switch (field, wireType) {
        case (1, 0):
          guard let version = reader.varint(), version <= UInt32.max else { return nil }
          header.version = UInt32(version)
        case (2, 2):
          guard let range = reader.payload() else { return nil }
          sender = range
        case (3, 0):
          guard let seq = reader.varint() else { return nil }
          header.seq = seq
        case (4, 0):
          guard let sentAt = reader.varint() else { return nil }
          header.sentAt = sentAt
        case (5, 0):
          guard let replyTo = reader.varint() else { return nil }
          header.replyTo = replyTo
        case (bodyField, 2):
          guard let read = reader.nested(readBody) else { return nil }
          body = read
        default: return nil
        }
      }
      guard let body else { return nil }
      if let sender {
        guard let text = reader.string(in: sender) else { return nil }
        header.sender = text
      }
      return (header, body)
    }
  }
}

extension Tenfoot_V1_KeyEvent {
  /// The `KeyEvent` `reader` holds in the usual shape; nil otherwise.
  static func read(_ reader: inout WireReader) -> Tenfoot_V1_KeyEvent? {
    var event = Tenfoot_V1_KeyEvent()
    var last = 0
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(), field > last, wireType == 0,
        let value = reader.varint()
      else { return nil }
      last = field
      switch field {
      case 1:
        // An enum is an int32: values above Int32.max are sign-wrapped; leave those alone.
        guard value <= Int32.max, let key = Tenfoot_V1_Key(rawValue: Int(value)) else {
          return nil
        }
        event.key = key
      case 2:
        guard value <= Int32.max, let phase = Tenfoot_V1_KeyPhase(rawValue: Int(value)) else {
          return nil
        }
        event.phase = phase
      case 3: event.timestampNs = value
      default: return nil
      }
    }
    return event
  }
}
