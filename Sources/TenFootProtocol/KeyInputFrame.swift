/// A key input's fields, read from its frame's bytes when they are in the usual shape (the
/// shape `decodedKeyInput` accepts, which makes its envelope from these), without making the
/// generated `Envelope` and `Input`: the broker's press path needs only these values.
///
/// Why by hand: the generated envelope and input each keep their fields in a heap storage
/// object, made, written field by field and copied on write; for the broker's 51-byte press
/// the hand decoder and those messages cost about 5,100 instructions per request, reading
/// `body` back out and the generic limits check and mapping over them about 3,900 more
/// (callgrind, `scripts/bench-instructions`). `KeyInputLaneTests` (BrokerCoreTests) holds the
/// broker's lane over these to the generic path on random and mutated frames.
public struct KeyInputFrame: Sendable, Equatable {
  /// The envelope's `protocol_version`.
  public var protocolVersion: UInt32 = 0
  /// The envelope's `sender`.
  public var sender = ""
  /// The envelope's `seq`.
  public var seq: UInt64 = 0
  /// The envelope's `sent_at_ns`.
  public var sentAtNs: UInt64 = 0
  /// The envelope's `reply_to`.
  public var replyTo: UInt64 = 0
  /// The input's `screen_id` (empty: none).
  public var screenID = ""
  /// The input's key event.
  public var key = Tenfoot_V1_KeyEvent()
  /// The input's `press_id` (empty: none).
  public var pressID = ""

  /// The field number of the `input` body (an `Input`) in `Envelope`.
  static let inputField = 13

  /// The key input `bytes` hold in the usual shape; nil otherwise.
  ///
  /// The input's fields are read straight into this value's (`readInput`): returned in a
  /// tuple they were copied and destroyed once more each, with the key event's unknown-field
  /// storage; this took 2,388 → 1,877 instructions per request (callgrind, the latency bench).
  public init?(_ bytes: [UInt8]) {
    guard
      let (header, _) = Tenfoot_V1_Envelope.readByHand(
        bytes, bodyField: Self.inputField, body: { self.readInput(&$0) ? () : nil })
    else { return nil }
    protocolVersion = header.version
    sender = header.sender
    seq = header.seq
    sentAtNs = header.sentAt
    replyTo = header.replyTo
  }

  /// The envelope SwiftProtobuf decodes from the same bytes.
  public var envelope: Tenfoot_V1_Envelope {
    var input = Tenfoot_V1_Input()
    if !screenID.isEmpty { input.screenID = screenID }
    input.event = .key(key)
    if !pressID.isEmpty { input.pressID = pressID }
    var envelope = Tenfoot_V1_Envelope()
    envelope.protocolVersion = protocolVersion
    envelope.seq = seq
    envelope.sentAtNs = sentAtNs
    envelope.replyTo = replyTo
    if !sender.isEmpty { envelope.sender = sender }
    envelope.body = .input(input)
    return envelope
  }

  /// Reads the `Input` `reader` holds into `screenID`, `key` and `pressID`: true when it is a
  /// key event in the usual shape (false otherwise, the fields then partly written).
  private mutating func readInput(_ reader: inout WireReader) -> Bool {
    var isKey = false
    var last = 0
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(), field > last else { return false }
      last = field
      switch (field, wireType) {
      case (1, 2):
        guard let screen = reader.string() else { return false }
        screenID = screen
      case (2, 2):
        guard let key = reader.nested(Tenfoot_V1_KeyEvent.read) else { return false }
        self.key = key
        isKey = true
      case (5, 2):
        guard let pressID = reader.string() else { return false }
        self.pressID = pressID
      default: return false
      }
    }
    return isKey
  }
}
