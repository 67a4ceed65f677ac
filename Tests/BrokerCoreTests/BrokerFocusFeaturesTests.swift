import BrokerDomain
import FocusEngine
import TenFootProtocol
import TestSupport
import Testing

@testable import BrokerCore

/// The wire edge of the domain, in memory: envelopes in, wire replies and publications out,
/// with the sentences for people written here and nowhere else. (The rules themselves are
/// tested in BrokerDomainTests; the socket loop in BrokerLoopTests.)
@Suite("Broker wire edge: requests, replies, errors and publications")
struct BrokerFocusFeaturesTests {
  /// Two rows as groups; the second is a modal-like trapping group when `trap` is set.
  static func twoRows(trap: Bool = false) -> Layout {
    var layout = TestLayouts.grid(rows: 2, columns: 3)
    layout.groups = [
      Group(id: "top", items: ["r0c0", "r0c1", "r0c2"]),
      Group(id: "bottom", items: ["r1c0", "r1c1", "r1c2"], trapsFocus: trap),
    ]
    return layout
  }

  struct Edge {
    var broker = WireBroker(epoch: 3, name: "test")
    var seq: UInt64 = 0

    mutating func send(_ body: Tenfoot_V1_Envelope.OneOf_Body) -> WireBroker.Outcome {
      seq += 1
      return broker.handle(
        Tenfoot_V1_Envelope(sender: "t", seq: seq, sentAtNanoseconds: 0, body: body),
        peer: [0, 1, 2, 3, 4], at: .origin)
    }

    mutating func register(_ layout: Layout) -> WireBroker.Outcome {
      send(
        .registerScreen(
          .with {
            $0.screenID = "main"
            $0.layout = Tenfoot_V1_Layout(layout)
          }))
    }

    mutating func key(_ key: Tenfoot_V1_Key, _ phase: Tenfoot_V1_KeyPhase = .down)
      -> WireBroker.Outcome
    {
      send(
        .input(
          .with {
            $0.screenID = "main"
            $0.key = .with {
              $0.key = key
              $0.phase = phase
            }
          }))
    }

    mutating func focus(_ target: Tenfoot_V1_FocusRequest.OneOf_Target?) -> WireBroker.Outcome {
      send(
        .focusRequest(
          .with {
            $0.screenID = "main"
            $0.target = target
          }))
    }
  }

  @Test("a registration is acknowledged and published whole under the screen's topic")
  func register() throws {
    var edge = Edge()
    let outcome = edge.register(Self.twoRows())
    guard case .ack(let ack) = outcome.reply else {
      Issue.record("not acknowledged: \(outcome.reply)")
      return
    }
    #expect(ack.screenID == "main" && ack.stateSeq == 1 && ack.focused == "r0c0")
    let publication = try #require(outcome.publications.first)
    #expect(publication.topic == WireProtocol.stateTopic(screen: "main"))
    guard case .snapshot(let snapshot) = publication.body else {
      Issue.record("not a snapshot: \(publication.body)")
      return
    }
    #expect(snapshot.epoch == 3 && snapshot.seq == 1 && snapshot.states.count == 6)
    #expect(outcome.records.isEmpty, "no data directory: nothing to persist")
  }

  @Test("moves become deltas whose effects the ack repeats")
  func moves() throws {
    var edge = Edge()
    _ = edge.register(Self.twoRows())
    let tab = edge.key(.tab)
    #expect(tab.reply.ack.effects.map(\.summary) == ["focus r0c0 → r1c0 (next)"])
    guard case .delta(let delta) = try #require(tab.publications.first).body else {
      Issue.record("no delta")
      return
    }
    #expect(delta.seq == 2 && delta.focused == "r1c0" && delta.cause.seq == 2)
    #expect(delta.effects == tab.reply.ack.effects)
    #expect(delta.changed.map(\.id) == ["r0c0", "r1c0"])
  }

  @Test("refusals get their code and a sentence naming the cause")
  func errors() {
    var edge = Edge()
    #expect(
      edge.key(.right).reply.error.message == #"no screen session "main" (none are registered)"#)
    let anyScreen = edge.send(
      .input(
        .with {
          $0.key = .with {
            $0.key = .right; $0.phase = .down
          }
        }))
    #expect(anyScreen.reply.error.code == .ambiguousScreen)
    #expect(anyScreen.reply.error.message == "no screen is registered yet")
    _ = edge.register(Self.twoRows(trap: true))
    #expect(edge.focus(.item("ghost")).reply.error.code == .unknownTarget)
    _ = edge.focus(.group("bottom"))
    let trapped = edge.focus(.item("r0c0")).reply.error
    #expect(trapped.code == .focusTrapped && trapped.message.contains("\"bottom\""))
    #expect(edge.focus(nil).reply.error.code == .invalidInput)
    let bad = edge.send(
      .patchLayout(
        .with {
          $0.screenID = "main"
          $0.operations = [Tenfoot_V1_PatchOperation(.removeItem("ghost"))]
        })
    ).reply.error
    #expect(bad.code == .invalidLayout && bad.message == #"operations[0]: unknown item "ghost""#)
    let unknown = edge.send(.snapshotRequest(.with { $0.screenID = "tv" })).reply.error
    #expect(unknown.code == .unknownScreen)
    #expect(unknown.message == #"no screen session "tv" (known: main)"#)
    #expect(edge.send(.welcome(.init())).reply.error.code == .unexpectedMessage)
    #expect(edge.send(.pairProof(.init())).reply.error.code == .unexpectedMessage)
    var old = Tenfoot_V1_Envelope(sender: "t", seq: 1, sentAtNanoseconds: 0, body: .hello(.init()))
    old.protocolVersion = 99
    #expect(edge.broker.handle(old, at: .origin).reply.error.code == .unsupportedVersion)
  }

  @Test("a remote is told apart by its connection identity in hex, or the sender without one")
  func remoteIdentities() {
    #expect(RemoteIdentity.of(peer: [0, 0x8b, 0x45, 0x67, 0xff], sender: "r") == "008b4567ff")
    #expect(RemoteIdentity.of(peer: [], sender: "remote:alice") == "remote:alice")
  }

  @Test("the debugger's typed answers become text for people")
  func debugger() {
    var edge = Edge()
    _ = edge.register(Self.twoRows())
    func debug(_ query: Tenfoot_V1_DebugRequest.OneOf_Query) -> String {
      if case .debugReport(let report) = edge.send(
        .debugRequest(
          .with {
            $0.screenID = "main"
            $0.query = query
          })
      ).reply {
        return report.text
      }
      return ""
    }
    #expect(debug(.tabLoop(true)) == "1. top → r0c0\n2. bottom → r1c0")
    #expect(debug(.dryRun("down")).hasPrefix("focused: r1c0\nmoved: true"))
    #expect(debug(.explainItem("r1c2")).contains("reachable from r0c0 with arrows"))
    #expect(
      debug(.groupTree(true)) == "top: 3 item(s), primary r0c0\nbottom: 3 item(s), primary r1c0")
    #expect(edge.key(.left).reply.ack.effects.map(\.summary) == ["bump left: no item that way"])
  }
}

extension Tenfoot_V1_Envelope.OneOf_Body {
  /// The ack in this body (empty if it is not one).
  fileprivate var ack: Tenfoot_V1_Ack {
    if case .ack(let ack) = self { return ack }
    return Tenfoot_V1_Ack()
  }

  /// The error in this body (empty if it is not one).
  fileprivate var error: Tenfoot_V1_Error {
    if case .error(let error) = self { return error }
    return Tenfoot_V1_Error()
  }
}
