import BrokerDomain
import FocusEngine
import Foundation
import TenFootProtocol
import TestSupport
import Testing

@testable import BrokerCore

/// A seeded random-mutation fuzzer over the envelope decoder (through the input limits and the
/// broker's request handling, which includes the wire layout loader) and the JSON layout
/// loader: the fallback to the libFuzzer targets in `fuzz/` (`scripts/fuzz`), which need a
/// sanitizer build. Seeds come from the libFuzzer corpus, `fuzz/corpus/envelope` and
/// `fuzz/corpus/layout-json` (committed); each run mutates them with bit flips, interesting
/// bytes, insertions, deletions, truncation, duplication and splicing. A crash or a hang fails
/// the test run. Budget: `TENFOOT_FUZZ_SECONDS` (default 5; CI sets 15), seed
/// `TENFOOT_FUZZ_SEED`. `TENFOOT_FUZZ_WRITE_CORPUS=1` rewrites the `seed-*` files of all three
/// corpora (the others are inputs libFuzzer found and a developer merged).
@Suite("Fuzzing: envelope decoder and layout loaders")
struct FuzzTests {
  /// `fuzz/corpus` at the top of the repository.
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fuzz/corpus")

  /// The layout of the registered screen in the seeds: a grid with nested, trapping and
  /// scrolling groups, a guide, a text field, a label, a priority and parallax layers.
  static func seedLayout() -> Tenfoot_V1_Layout {
    var layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 3, columns: 3))
    layout.initialFocus = "r0c0"
    layout.items[4].kind = .textField
    layout.items[4].value = "text"
    layout.items[5].priority = 2
    layout.items[5].layers = [
      .with {
        $0.name = "back"; $0.depth = 0.5
      }
    ]
    layout.items[6].unavailable = true
    layout.items[7].momentary = true
    layout.items.append(
      .with {
        $0.id = "heading"
        $0.kind = .label
        $0.frame = .with {
          $0.x = 0; $0.y = 1000; $0.width = 400; $0.height = 40
        }
      })
    layout.groups = [
      .with {
        $0.id = "top"
        $0.items = ["r0c0", "r0c1"]
        $0.remembersLastFocused = true
        $0.preferredFocus = "r0c1"
        $0.groups = [
          .with {
            $0.id = "inner"; $0.items = ["r1c1"]; $0.trapsFocus = true
          }
        ]
      },
      .with {
        $0.id = "row"
        $0.items = ["r2c0", "r2c1", "r2c2"]
        $0.scroll = .horizontal
        $0.viewport = .with {
          $0.x = 0; $0.y = 0; $0.width = 500; $0.height = 1080
        }
        $0.selectionFollowsFocus = true
      },
    ]
    layout.guides = [
      .with {
        $0.id = "guide"
        $0.frame = .with {
          $0.x = 0; $0.y = 900; $0.width = 1920; $0.height = 10
        }
        $0.destinations = ["r2c1"]
      }
    ]
    return layout
  }

  /// The seeds written to the corpora, by target directory: one envelope of each body type
  /// (requests the broker serves and the ones it refuses), layout JSON, and wire layouts.
  static func seeds() throws -> [(target: String, name: String, bytes: [UInt8])] {
    func envelope(_ body: Tenfoot_V1_Envelope.OneOf_Body) -> [UInt8] {
      Tenfoot_V1_Envelope(sender: "seed", seq: 3, sentAtNanoseconds: 99, replyTo: 2, body: body)
        .encoded()
    }
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = "main"
    register.layout = seedLayout()
    func input(_ event: Tenfoot_V1_Input.OneOf_Event) -> Tenfoot_V1_Envelope.OneOf_Body {
      .input(
        .with {
          $0.screenID = "main"; $0.event = event
        })
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
    var patch = Tenfoot_V1_PatchLayout()
    patch.screenID = "main"
    patch.operations = [
      .with {
        $0.addItem = .with {
          $0.item = .with {
            $0.id = "new"
            $0.frame = .with {
              $0.x = 1500; $0.y = 0; $0.width = 300; $0.height = 200
            }
          }
          $0.group = "top"
        }
      },
      .with { $0.removeItem = "r2c2" },
      .with {
        $0.moveItem = .with {
          $0.id = "r0c0";
          $0.frame = .with {
            $0.x = 10; $0.y = 10; $0.width = 100; $0.height = 50
          }
        }
      },
      .with {
        $0.setItemAvailable = .with {
          $0.id = "r2c0"; $0.enabled = false
        }
      },
      .with {
        $0.addGroup = .with {
          $0.group = .with {
            $0.id = "more"; $0.items = ["new"]
          }
        }
      },
      .with { $0.removeGroup = "row" },
      .with {
        $0.setGroupEnabled = .with {
          $0.id = "top"; $0.enabled = false
        }
      },
      .with {
        $0.addGuide = .with {
          $0.id = "g2"; $0.destinations = ["r1c0"]
        }
      },
      .with { $0.removeGuide = "guide" },
      .with {
        $0.setGuideEnabled = .with {
          $0.id = "g2"; $0.enabled = true
        }
      },
    ]
    patch.focusItem = "r1c0"
    let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("examples/home.json")
    let home = try Data(contentsOf: example)
    let groupsJSON = Array(
      #"{"canvas":{"width":1920,"height":1080},"items":[{"id":"a","frame":[0,0,10,10]},{"id":"b","frame":[20,0,10,10],"available":false,"selected":true}],"groups":[{"id":"g","items":["a"],"groups":[{"id":"h","items":["b"]}]}],"initialFocus":"a"}"#
        .utf8)
    let requests: [(String, Tenfoot_V1_Envelope.OneOf_Body)] = [
      (
        "hello",
        .hello(
          .with {
            $0.role = .remote; $0.client = "seed"
          })
      ),
      ("register", .registerScreen(register)),
      (
        "input-key",
        input(
          .key(
            .with {
              $0.key = .select; $0.phase = .down; $0.timestampNs = 1
            }))
      ),
      (
        "input-key-up",
        input(
          .key(
            .with {
              $0.key = .right; $0.phase = .up; $0.timestampNs = 2
            }))
      ),
      (
        "input-touch",
        input(
          .touch(
            .with {
              $0.phase = .moved; $0.x = 0.5; $0.y = -0.25
            }))
      ),
      ("input-text", input(.text(.with { $0.append = "abc" }))),
      ("snapshot-request", .snapshotRequest(.with { $0.screenID = "main" })),
      (
        "heartbeat",
        .heartbeat(
          .with {
            $0.epoch = 1; $0.screenID = "main"
          })
      ),
      ("patch-layout", .patchLayout(patch)),
      (
        "focus-item",
        .focusRequest(
          .with {
            $0.screenID = "main"; $0.item = "r2c1"
          })
      ),
      (
        "focus-group",
        .focusRequest(
          .with {
            $0.screenID = "main"; $0.group = "top"
          })
      ),
      (
        "debug-explain",
        .debugRequest(
          .with {
            $0.screenID = "main"; $0.explainItem = "r1c1"
          })
      ),
      (
        "debug-tab-loop",
        .debugRequest(
          .with {
            $0.screenID = "main"; $0.tabLoop = true
          })
      ),
      (
        "debug-dry-run",
        .debugRequest(
          .with {
            $0.screenID = "main"; $0.dryRun = "right"
          })
      ),
      ("ack", .ack(ack)),
      ("error", .error(.init(.malformed, "seed"))),
      (
        "welcome",
        .welcome(
          .with {
            $0.epoch = 1; $0.screens = ["main"]
          })
      ),
      (
        "pair-request",
        .pairRequest(
          .with {
            $0.name = "x"; $0.publicKey = Data(repeating: 1, count: 32)
            $0.nonce = Data(repeating: 3, count: 32)
          })
      ),
      (
        "pair-proof",
        .pairProof(
          .with {
            $0.proof = Data(repeating: 2, count: 64); $0.share = Data(repeating: 4, count: 32)
          })
      ),
    ]
    let homeLayout = try LayoutFile.decode(home)
    return requests.map { ("envelope", "seed-\($0.0).bin", envelope($0.1)) } + [
      ("layout-json", "seed-grid.json", Array(TestLayouts.gridJSON(rows: 2, columns: 3).utf8)),
      ("layout-json", "seed-groups.json", groupsJSON),
      ("layout-json", "seed-home.json", [UInt8](home)),
      ("layout-wire", "seed-register.bin", try seedLayout().serializedBytes() as [UInt8]),
      (
        "layout-wire", "seed-home.bin",
        try Tenfoot_V1_Layout(homeLayout).serializedBytes() as [UInt8]
      ),
    ]
  }

  /// The engine's seeded generator: drives mutations reproducibly.
  typealias Random = SplitMix64

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
      for seed in try Self.seeds() {
        let directory = Self.corpus.appendingPathComponent(seed.target)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(seed.bytes).write(to: directory.appendingPathComponent(seed.name))
      }
    }
    func files(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
      let directory = Self.corpus.appendingPathComponent(target)
      return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map {
        ($0, [UInt8](try Data(contentsOf: directory.appendingPathComponent($0))))
      }
    }
    let envelopes = try files("envelope")
    let layouts = try files("layout-json")
    let binary = envelopes.map(\.bytes)
    let json = layouts.map(\.bytes)
    #expect(
      envelopes.count(where: { $0.name.hasPrefix("seed-") }) >= 10
        && layouts.count(where: { $0.name.hasPrefix("seed-") }) >= 2,
      "the committed corpus is there: \(envelopes.map(\.name)) \(layouts.map(\.name))")
    // Every seed is valid: the fuzzer starts from inputs that reach deep into the code (inputs
    // libFuzzer found and a developer merged need not be).
    for seed in envelopes where seed.name.hasPrefix("seed-") {
      #expect((try? Tenfoot_V1_Envelope.decode(seed.bytes)) != nil, "\(seed.name)")
    }
    for seed in layouts where seed.name.hasPrefix("seed-") {
      #expect((try? LayoutFile.decode(Data(seed.bytes))) != nil, "\(seed.name)")
    }
    let register = try #require(envelopes.first { $0.name == "seed-register.bin" }).bytes

    let seconds = Double(environment["TENFOOT_FUZZ_SECONDS"] ?? "") ?? 5
    var random = Random(seed: UInt64(environment["TENFOOT_FUZZ_SEED"] ?? "") ?? 0x7E4F_0070)
    var state = WireBroker(epoch: 1, name: "fuzz")
    let registered = state.handle(Tenfoot_V1_Envelope(decode: register), at: .origin).reply
    #expect(
      { if case .ack = registered { true } else { false } }(),
      "the register seed's layout is valid: \(registered)")
    let deadline = Date(timeIntervalSinceNow: seconds)
    var executions = 0
    var decoded = 0
    var served = 0
    var validLayouts = 0
    while Date() < deadline {
      for _ in 0..<200 {
        executions += 1
        if random.below(4) == 0 {
          let seed = json[random.below(json.count)]
          let input = Self.mutate(seed, other: json[random.below(json.count)], random: &random)
          if (try? LayoutFile.decode(Data(input))) != nil { validLayouts += 1 }
          continue
        }
        let seed = binary[random.below(binary.count)]
        let input = Self.mutate(seed, other: binary[random.below(binary.count)], random: &random)
        guard let envelope = try? Tenfoot_V1_Envelope.decode(input) else { continue }
        decoded += 1
        if InputLimits.problem(envelope) == nil {
          let outcome = state.handle(envelope, at: .origin)
          if case .error = outcome.reply {} else { served += 1 }
        }
      }
      if executions % 20_000 == 0 {
        state = WireBroker(epoch: 1, name: "fuzz")
        _ = state.handle(Tenfoot_V1_Envelope(decode: register), at: .origin)
      }
    }
    print(
      "fuzz: \(executions) executions in \(Int(seconds)) s (\(Int(Double(executions) / seconds))/s), corpus \(binary.count + json.count) files; \(decoded) decoded envelopes, \(served) served requests, \(validLayouts) valid mutated layouts"
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
