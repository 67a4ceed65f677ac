import Foundation

/// Control messages too large to send whole travel in parts (`MessagePart`, docs/protocol.md
/// "Large messages in parts"): the whole encoded envelope cut into pieces of at most
/// `partSize` bytes, each in an envelope of its own that carries the whole message's seq. The
/// broker's message size limit then bounds the bytes libzmq decrypts in one go (a CURVE
/// message is decrypted whole on libzmq's I/O thread, which reads no other connection
/// meanwhile), however large the layout.
public enum MessageParts {
  /// The most bytes of the whole message one part carries: a part's envelope stays well under
  /// `WireProtocol.defaultMaxMessageSize`.
  public static let partSize = 192 * 1024
  /// The most parts one message may have.
  public static let maxParts = 1024
  /// The field number of the `part` body in `Envelope`.
  public static let partField = 40

  /// What goes on the wire for `envelope`: its encoding if it is at most `partSize` bytes, else
  /// its parts in order (all with its seq and sender). Nil if it needs more than `maxParts`.
  public static func frames(of envelope: Tenfoot_V1_Envelope, partSize: Int = partSize)
    -> [[UInt8]]?
  {
    precondition(partSize > 0, "parts carry at least one byte")
    let whole = envelope.encoded()
    guard whole.count > partSize else { return [whole] }
    let count = (whole.count + partSize - 1) / partSize
    guard count <= maxParts else { return nil }
    return (0..<count).map { index in
      var part = Tenfoot_V1_MessagePart()
      part.index = UInt32(index)
      part.count = UInt32(count)
      part.data = Data(whole[(index * partSize)..<min(whole.count, (index + 1) * partSize)])
      return Tenfoot_V1_Envelope(
        sender: envelope.sender, seq: envelope.seq, sentAtNanoseconds: envelope.sentAtNs,
        body: .part(part)
      ).encoded()
    }
  }

  /// Whether `frame` is an envelope whose body is a `MessagePart`, read from its top-level
  /// field tags without decoding it: O(number of header fields), the payload is skipped.
  /// False for anything that does not parse that far (serving it reports what is wrong).
  public static func isPart(_ frame: [UInt8]) -> Bool {
    TopLevelFields.first(in: frame) { number, wireType, _ in
      number == UInt64(partField) && wireType == 2 ? true : nil
    } ?? false
  }
}
