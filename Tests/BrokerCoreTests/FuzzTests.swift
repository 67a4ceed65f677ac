import FocusEngine
import Foundation
import TenFootProtocol
import TestSupport
import Testing

@testable import BrokerCore

/// A seeded random-mutation fuzzer over the envelope decoder (through the input limits and the
/// broker's request handling, which includes the wire layout loader) and the JSON layout
/// loader. Seeds come from `FuzzCorpus/` (committed); each run mutates them with bit flips,
/// interesting bytes, insertions, deletions, truncation, duplication and splicing. A crash or a
/// hang fails the test run. Budget: `TENFOOT_FUZZ_SECONDS` (default 5; CI sets 60), seed
/// `TENFOOT_FUZZ_SEED`. `TENFOOT_FUZZ_WRITE_CORPUS=1` rewrites the seed files.
@Suite("Fuzzing: envelope decoder and layout loaders")
struct FuzzTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("FuzzCorpus")

  /// The seeds written to the corpus: one of each request, some replies, and layout JSON.
  static func seeds() -> [(name: String, bytes: [UInt8])] {
    func envelope(_ body: Tenfoot_V1_Envelope.OneOf_Body) -> [UInt8] {
      Tenfoot_V1_Envelope(sender: "seed", seq: 3, sentAtNanoseconds: 99, replyTo: 2, body: body)
        .encoded()
    }
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = "main"
    register.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 3, columns: 3))
    register.layout.groups = [
      .with {
        $0.id = "top"
        $0.items = ["r0c0", "r0c1"]
        $0.groups = [
          .with {
            $0.id = "inner"; $0.items = ["r1c1"]
          }
        ]
      }
    ]
    var input = Tenfoot_V1_Input()
    input.screenID = "main"
    input.key = .with {
      $0.key = .select
      $0.phase = .down
      $0.timestampNs = 12345
    }
    var ack = Tenfoot_V1_Ack()
    ack.screenID = "main"
    ack.focused = "r0c1"
    ack.effects = [
      .with {
        $0.focusChanged = .with {
          $0.previous = "a"; $0.next = "b"; $0.heading = .right
        }
      }
    ]
    return [
      (
        "hello.bin",
        envelope(
          .hello(
            .with {
              $0.role = .remote; $0.client = "seed"
            }))
      ),
      ("register.bin", envelope(.registerScreen(register))),
      ("input.bin", envelope(.input(input))),
      ("snapshot-request.bin", envelope(.snapshotRequest(.with { $0.screenID = "main" }))),
      ("ack.bin", envelope(.ack(ack))),
      (
        "pair-request.bin",
        envelope(
          .pairRequest(
            .with {
              $0.name = "x"; $0.publicKey = Data(repeating: 1, count: 32)
            }))
      ),
      ("pair-proof.bin", envelope(.pairProof(.with { $0.proof = Data(repeating: 2, count: 32) }))),
      ("layout-grid.json", Array(TestLayouts.gridJSON(rows: 2, columns: 3).utf8)),
      (
        "layout-groups.json",
        Array(
          #"{"canvas":{"width":1920,"height":1080},"items":[{"id":"a","frame":[0,0,10,10]},{"id":"b","frame":[20,0,10,10],"available":false,"selected":true}],"groups":[{"id":"g","items":["a"],"groups":[{"id":"h","items":["b"]}]}],"initialFocus":"a"}"#
            .utf8)
      ),
    ]
  }

  /// SplitMix64: small, seedable, good enough to drive mutations reproducibly.
  struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func below(_ limit: Int) -> Int { limit <= 1 ? 0 : Int(next() % UInt64(limit)) }
  }

  static let interesting: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFF, 0x0A, 0x22, 0x5B, 0x7B, 0x2D]

  static func mutate(_ input: [UInt8], other: [UInt8], random: inout Random) -> [UInt8] {
    var bytes = input
    for _ in 0...random.below(4) {
      switch random.below(7) {
      case 0 where !bytes.isEmpty:
        bytes[random.below(bytes.count)] ^= UInt8(1 << random.below(8))
      case 1 where !bytes.isEmpty:
        bytes[random.below(bytes.count)] = interesting[random.below(interesting.count)]
      case 2:
        bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: random.below(bytes.count + 1))
      case 3 where !bytes.isEmpty:
        let start = random.below(bytes.count)
        bytes.removeSubrange(start..<min(bytes.count, start + 1 + random.below(8)))
      case 4:
        bytes = Array(bytes.prefix(random.below(bytes.count + 1)))
      case 5 where !bytes.isEmpty:
        let start = random.below(bytes.count)
        let chunk = bytes[start..<min(bytes.count, start + 1 + random.below(16))]
        bytes.insert(contentsOf: chunk, at: random.below(bytes.count + 1))
      default:
        let cut = random.below(bytes.count + 1)
        bytes =
          Array(bytes.prefix(cut))
          + other.suffix(max(0, other.count - random.below(other.count + 1)))
      }
    }
    return bytes
  }

  @Test("mutated envelopes and layouts never crash the decoders or the broker's handling")
  func fuzz() throws {
    let environment = ProcessInfo.processInfo.environment
    if environment["TENFOOT_FUZZ_WRITE_CORPUS"] == "1" {
      try FileManager.default.createDirectory(at: Self.corpus, withIntermediateDirectories: true)
      for seed in Self.seeds() {
        try Data(seed.bytes).write(to: Self.corpus.appendingPathComponent(seed.name))
      }
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted()
    let corpus = try files.map { name in
      (name: name, bytes: [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(name))))
    }
    let binary = corpus.filter { $0.name.hasSuffix(".bin") }.map(\.bytes)
    let json = corpus.filter { $0.name.hasSuffix(".json") }.map(\.bytes)
    #expect(binary.count >= 5 && json.count >= 2, "the committed corpus is there: \(files)")
    // Every seed is valid: the fuzzer starts from inputs that reach deep into the code.
    for seed in binary { #expect((try? Tenfoot_V1_Envelope.decode(seed)) != nil) }
    for seed in json { #expect((try? LayoutFile.decode(Data(seed))) != nil) }

    let seconds = Double(environment["TENFOOT_FUZZ_SECONDS"] ?? "") ?? 5
    var random = Random(state: UInt64(environment["TENFOOT_FUZZ_SEED"] ?? "") ?? 0x7E4F_0070)
    var state = BrokerState(epoch: 1, name: "fuzz")
    _ = state.handle(
      Tenfoot_V1_Envelope(decode: binary[1]))
    let deadline = Date(timeIntervalSinceNow: seconds)
    var executions = 0
    var decoded = 0
    var served = 0
    var layouts = 0
    while Date() < deadline {
      for _ in 0..<200 {
        executions += 1
        if random.below(4) == 0 {
          let seed = json[random.below(json.count)]
          let input = Self.mutate(seed, other: json[random.below(json.count)], random: &random)
          if (try? LayoutFile.decode(Data(input))) != nil { layouts += 1 }
          continue
        }
        let seed = binary[random.below(binary.count)]
        let input = Self.mutate(seed, other: binary[random.below(binary.count)], random: &random)
        guard let envelope = try? Tenfoot_V1_Envelope.decode(input) else { continue }
        decoded += 1
        if InputLimits.problem(envelope) == nil {
          let outcome = state.handle(envelope)
          if case .error = outcome.reply {} else { served += 1 }
        }
      }
      if executions % 20_000 == 0 {
        state = BrokerState(epoch: 1, name: "fuzz")
        _ = state.handle(Tenfoot_V1_Envelope(decode: binary[1]))
      }
    }
    print(
      "fuzz: \(executions) executions in \(Int(seconds)) s (\(Int(Double(executions) / seconds))/s), corpus \(corpus.count) files; \(decoded) decoded envelopes, \(served) served requests, \(layouts) valid mutated layouts"
    )
    #expect(executions > 1000)
    #expect(decoded > 0 && served > 0, "mutations reach the broker's handling")
  }
}

extension Tenfoot_V1_Envelope {
  /// Decodes a seed known to be valid (empty envelope otherwise).
  fileprivate init(decode bytes: [UInt8]) {
    self = (try? Tenfoot_V1_Envelope.decode(bytes)) ?? Tenfoot_V1_Envelope()
  }
}
