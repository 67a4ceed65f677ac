import SwiftProtobuf
import TenFootProtocol
import Testing

/// The two checks every hand-written decoder of a body (`decodedDelta`, `decodedAck`) passes:
/// on random envelopes and on mutated frames, whatever it returns is what SwiftProtobuf
/// decodes, and `decode(_:)` answers as SwiftProtobuf does whether or not it declined.
enum HandDecodingChecks {
  /// `count` random envelopes from `make` (given the sample's index): the hand-written
  /// `decoded` must read each as it was made and as SwiftProtobuf reads it. Returns how many
  /// it read (the rest it declined).
  static func random(
    seed: UInt64, count: Int, make: (inout PressMessageSamples, Int) -> Tenfoot_V1_Envelope,
    decoded: ([UInt8]) -> Tenfoot_V1_Envelope?
  ) throws -> Int {
    var samples = PressMessageSamples(seed: seed)
    var read = 0
    for index in 0..<count {
      let envelope = make(&samples, index)
      let bytes: [UInt8] = try envelope.serializedBytes()
      let reference = KeyInputDecodingTests.reference(bytes)
      if let decoded = decoded(bytes) {
        read += 1
        try #require(decoded == envelope, "sample \(index)")
        try #require(decoded == reference, "sample \(index)")
      }
      try #require((try? Tenfoot_V1_Envelope.decode(bytes)) == reference, "sample \(index)")
    }
    return read
  }

  /// `count` envelopes from `make`, each with one to three random mutations: `decoded` must
  /// answer as SwiftProtobuf does, or decline. Returns how many it declined.
  static func mutated(
    seed: UInt64, count: Int, make: (inout PressMessageSamples) -> Tenfoot_V1_Envelope,
    decoded: ([UInt8]) -> Tenfoot_V1_Envelope?
  ) throws -> Int {
    var samples = PressMessageSamples(seed: seed)
    var declined = 0
    let mutator = KeyInputDecodingTests()
    for _ in 0..<count {
      var bytes: [UInt8] = try make(&samples).serializedBytes()
      for _ in 0..<(1 + samples.random.below(3)) { mutator.mutate(&bytes, &samples) }
      let reference = KeyInputDecodingTests.reference(bytes)
      if let decoded = decoded(bytes) {
        try #require(DeltaDecodingTests.same(decoded, reference), "\(bytes)")
      } else {
        declined += 1
      }
      try #require(
        DeltaDecodingTests.same(try? Tenfoot_V1_Envelope.decode(bytes), reference),
        "decode(_:) of \(bytes)")
    }
    return declined
  }
}
