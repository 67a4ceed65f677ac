import CZeroMQ

/// A CURVE key pair in Z85 text (40 characters each).
public struct CurveKeyPair: Sendable, Hashable {
  /// The public key, safe to share.
  public var publicKey: String
  /// The secret key; store it with mode 0600.
  public var secretKey: String

  /// Wraps existing Z85 keys.
  public init(publicKey: String, secretKey: String) {
    self.publicKey = publicKey
    self.secretKey = secretKey
  }

  /// Generates a fresh key pair with libzmq's `zmq_curve_keypair`.
  public static func generate() throws(ZeroMQError) -> CurveKeyPair {
    var publicKey = [CChar](repeating: 0, count: 41)
    var secretKey = [CChar](repeating: 0, count: 41)
    guard zmq_curve_keypair(&publicKey, &secretKey) == 0 else {
      throw ZeroMQError.last("zmq_curve_keypair")
    }
    return CurveKeyPair(publicKey: z85(publicKey), secretKey: z85(secretKey))
  }
}

/// Z85 text from a NUL-terminated C buffer.
private func z85(_ buffer: [CChar]) -> String {
  String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
