import FocusEngine
import Testing

@testable import BrokerDomain

/// What keeps an outcome cheap to move on the input path: snapshots boxed (a reply and an
/// effect stay small), and access's additions matched without copying the reply.
struct OutcomeShapeTests {
  @Test("a reply and an effect are not the size of a snapshot")
  func sizes() throws {
    #expect(MemoryLayout<SessionSnapshot>.size > 400)
    #expect(MemoryLayout<BrokerReply>.size < 128)
    #expect(MemoryLayout<BrokerDomain.Outcome>.size < 160)
    #expect(MemoryLayout<BrokerEffect>.size <= MemoryLayout<StateChange>.size + 8)
    // A boxed snapshot reads back whole, and compares by value.
    let item = Item(id: "a", title: "A", frame: Rect(x: 0, y: 0, width: 10, height: 10))
    let focus = try FocusState(layout: Layout(items: [item], groups: []))
    let snapshot = SessionSnapshot(screen: "s", epoch: 1, seq: 2, focus: focus, parallax: nil)
    let reply = BrokerReply.snapshot(snapshot)
    guard case .snapshot(let back) = reply else {
      Issue.record("not a snapshot")
      return
    }
    #expect(back == snapshot)
    #expect(reply == .snapshot(snapshot))
    #expect(BrokerEffect.publish(Publication.snapshot(snapshot)) == .publish(.snapshot(snapshot)))
    var other = snapshot
    other.seq = 3
    #expect(reply != .snapshot(other))
  }

  @Test(
    "access's additions match the straightforward tuple switch",
    arguments: [
      Principal.local, Principal(id: "k", key: "aa01", role: .screen),
      Principal(id: "r", key: "bb02", role: .remote, screens: ["den"]),
      Principal(id: "r", key: "bb02", role: .remote),
      Principal(id: "p", key: "cc03", role: .app, screens: ["main"]),
    ])
  func authorized(principal: Principal) {
    let domain = BrokerDomain(epoch: 1, name: "test")
    let owners = ["main": "aa01", "den": "dd04"]
    let replies: [BrokerReply] = [
      .welcome(Welcome(epoch: 1, name: "test", screens: ["den", "main", "spare"])),
      .ack(Acknowledgement(screen: "den", seq: 3, focused: "a")),
      .error(.noScreenRegistered), .held(token: 4, screen: "den"),
      .expired(screens: ["main"]),
    ]
    let decisions: [AccessDecision] = [.allowed, .claim(screen: "den")]
    for reply in replies {
      for decision in decisions {
        for effects in [[], [BrokerEffect.bind(screen: "x", key: "y")]] {
          var outcome = BrokerDomain.Outcome(reply: reply, effects: effects)
          var expected = outcome
          domain.authorized(&outcome, decision: decision, principal: principal, owners: owners)
          Self.reference(&expected, decision: decision, principal: principal, owners: owners)
          #expect(outcome == expected, "\(reply), \(decision)")
        }
      }
    }
  }

  /// `BrokerDomain.authorized` as it was written first: one switch over the pair.
  static func reference(
    _ outcome: inout BrokerDomain.Outcome, decision: AccessDecision, principal: Principal,
    owners: [String: String]
  ) {
    switch (outcome.reply, decision) {
    case (.welcome(var welcome), _) where principal.role != .local:
      welcome.screens = welcome.screens.filter {
        BrokerDomain.mayUse($0, principal: principal, owners: owners)
      }
      outcome.reply = .welcome(welcome)
    case (.ack, .claim(let screen)):
      outcome.effects.append(.bind(screen: screen, key: principal.key))
    default: break
    }
  }
}
