/// The reply every remote waits for after each press and release, an `Envelope` whose body is
/// an `Ack`, decoded by hand when its bytes have the shape the broker writes
/// (`Acknowledgement.writeAck`): each field in field-number order with its declared wire type,
/// the effects one after another, nothing unknown, and effects of the kinds a move makes.
/// Anything else is left to SwiftProtobuf, so the result is always the message SwiftProtobuf
/// decodes: `AckDecodingTests` compares the two on random and mutated frames.
///
/// Why by hand: a remote decodes one per key event, on the path from a press to its ack that
/// the durable part measures (`tenfoot-bench --only durable`), and SwiftProtobuf's generic
/// decoder cost about 15,900 instructions an ack (callgrind, the latency bench's remote side,
/// 8,404 acks), several times what the broker spends writing it.
extension Tenfoot_V1_Envelope {
  /// The envelope `bytes` hold when they are an ack in the broker's shape; nil otherwise
  /// (`decode(_:)` then asks SwiftProtobuf).
  public static func decodedAck(_ bytes: [UInt8]) -> Tenfoot_V1_Envelope? {
    decodedByHand(bytes, bodyField: ackField) { reader in
      Tenfoot_V1_Ack.read(&reader).map { .ack($0) }
    }
  }
}

extension Tenfoot_V1_Ack {
  /// The `Ack` `reader` holds in the broker's shape; nil otherwise.
  static func read(_ reader: inout WireReader) -> Tenfoot_V1_Ack? {
    var ack = Tenfoot_V1_Ack()
    var order = FieldOrder()
    // Gathered and set once, as the delta's are.
    var effects: [Tenfoot_V1_FocusEffect] = []
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(), order.accepts(field, repeated: field == 3)
      else { return nil }
      switch (field, wireType) {
      case (1, 0):
        guard let seq = reader.varint() else { return nil }
        ack.stateSeq = seq
      case (2, 2):
        guard let focused = reader.string() else { return nil }
        ack.focused = focused
      case (3, 2):
        guard let effect = reader.nested(Tenfoot_V1_FocusEffect.read) else { return nil }
        effects.append(effect)
      case (4, 2):
        guard let screen = reader.string() else { return nil }
        ack.screenID = screen
      case (5, 0):
        guard let editing = reader.varint() else { return nil }
        ack.editingText = editing != 0
      case (6, 0):
        guard let app = reader.varint() else { return nil }
        ack.app = app != 0
      default: return nil
      }
    }
    if !effects.isEmpty { ack.effects = effects }
    return ack
  }
}
