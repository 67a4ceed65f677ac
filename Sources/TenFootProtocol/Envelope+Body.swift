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
  public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> Tenfoot_V1_Envelope {
    do {
      return try Tenfoot_V1_Envelope(serializedBytes: bytes)
    } catch {
      throw .malformed("not a tenfoot.v1.Envelope (\(bytes.count) bytes): \(error)")
    }
  }

  /// Encodes to one frame.
  public func encoded() -> [UInt8] {
    // Serializing a message built in memory only fails for proto2 required fields, which
    // proto3 does not have; an empty frame would be answered as malformed, never misread.
    (try? serializedBytes()) ?? []
  }

  /// A short name of the body for logs ("input", "hello", …).
  public var bodyName: String {
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
    case .pairRequest: "pair_request"
    case .pairChallenge: "pair_challenge"
    case .pairProof: "pair_proof"
    case .paired: "paired"
    case .pairingPrompt: "pairing_prompt"
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
