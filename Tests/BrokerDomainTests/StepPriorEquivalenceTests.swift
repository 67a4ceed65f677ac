import FocusEngine
import Testing

@testable import BrokerDomain

/// `BrokerDomain.step` reads the state before a step through `FocusState.Prior` on the layout
/// tables after it when the step keeps them, and on a copy of the whole state otherwise. Held
/// here to the straightforward step, which copies the whole state before every step, on seeded
/// random layouts (labelled groups, pointer-revealed groups, text fields, toggles, layers) and
/// histories of every kind of remote input and focus request.
struct StepPriorEquivalenceTests {
  @Test(
    "a step's whole outcome and session match the step with the whole state copied",
    arguments: Array(UInt64(1)...40))
  func matches(seed: UInt64) throws {
    var rng = SplitMix64(seed: 6_300 + seed)
    let layout = Self.layout(&rng)
    var session = ScreenSession(id: "main", focus: try FocusState(layout: layout), seq: 1)
    var time: UInt64 = 1_000_000_000
    for index in 0..<150 {
      time += UInt64(Int.random(in: 1...400, using: &rng)) * 1_000_000
      let step = Self.step(&rng, layout: layout, at: time)
      let cause = FocusCause(sender: "r", sequence: UInt64(index))
      let now = BrokerInstant(sinceOrigin: .nanoseconds(Int64(time)))
      var expectedSession = session
      let expected = Self.reference(&expectedSession, step, cause: cause, epoch: 7, at: now)
      let outcome = BrokerDomain.step(&session, step, cause: cause, epoch: 7, at: now)
      #expect(outcome == expected, "seed \(seed), step \(index): \(step)")
      #expect(session == expectedSession, "seed \(seed), step \(index): \(step)")
      if outcome != expected || session != expectedSession { return }
    }
  }

  /// Rows of items, each row a group that may be labelled or revealed by the pointer.
  static func layout(_ rng: inout SplitMix64) -> Layout {
    var layout = Layout(items: [], groups: [])
    let rows = Int.random(in: 1...4, using: &rng)
    let columns = Int.random(in: 1...5, using: &rng)
    for row in 0..<rows {
      var ids: [String] = []
      for column in 0..<columns {
        var item = Item(
          id: "r\(row)c\(column)", title: "R\(row)C\(column)",
          frame: Rect(
            x: Double(column) * 300 + 40, y: Double(row) * 220 + 40, width: 260, height: 180),
          available: Double.random(in: 0..<1, using: &rng) > 0.15,
          toggles: Bool.random(using: &rng),
          selected: Double.random(in: 0..<1, using: &rng) < 0.2)
        if Double.random(in: 0..<1, using: &rng) < 0.1 { item.kind = .textField }
        if Double.random(in: 0..<1, using: &rng) < 0.3 {
          item.layers = [
            ParallaxLayer(name: "back", depth: 0), ParallaxLayer(name: "front", depth: 1),
          ]
        }
        layout.items.append(item)
        ids.append(item.id)
      }
      layout.groups.append(
        Group(
          id: "row\(row)", items: ids,
          accessibilityLabel: Bool.random(using: &rng) ? "Row \(row)" : nil,
          revealOnPointer: Double.random(in: 0..<1, using: &rng) < 0.35))
    }
    return layout
  }

  /// A random step: a remote's button, touch, text or pointer input, or a focus request or the
  /// pointer's idle check.
  static func step(_ rng: inout SplitMix64, layout: Layout, at time: UInt64) -> BrokerDomain.Step {
    let x = Double.random(in: 0...1_300, using: &rng)
    let y = Double.random(in: 0...900, using: &rng)
    switch Int.random(in: 0..<12, using: &rng) {
    case 0..<5:
      let buttons: [RemoteButton] = [.up, .down, .left, .right, .select, .tab, .shiftTab, .menu]
      let phases: [ButtonPhase] = [.down, .down, .up, .held]
      return .remote(
        .button(
          buttons[Int.random(in: buttons.indices, using: &rng)],
          phases[Int.random(in: phases.indices, using: &rng)], at: time),
        from: "r")
    case 5:
      let phases: [TouchRecognizer.Phase] = [.began, .moved, .moved, .ended]
      return .remote(
        .touch(
          phases[Int.random(in: phases.indices, using: &rng)],
          x: Double.random(in: -1...1, using: &rng),
          y: Double.random(in: -1...1, using: &rng), at: time), from: "r")
    case 6:
      return .remote(.text(Bool.random(using: &rng) ? .append("a") : .clear), from: "r")
    case 7..<10:
      let phases: [PointerPhase] = [.moved, .moved, .down, .up, .scroll]
      return .remote(
        .pointer(
          PointerEvent(phases[Int.random(in: phases.indices, using: &rng)], x: x, y: y, at: time)),
        from: "r")
    case 10:
      return .event(
        .requestFocus(.item(layout.items[Int.random(in: layout.items.indices, using: &rng)].id)))
    default:
      return .event(.pointerIdle(at: time))
    }
  }

  /// `BrokerDomain.step` as it was first written: the whole state copied before the step.
  static func reference(
    _ session: inout ScreenSession, _ step: BrokerDomain.Step, cause: FocusCause, epoch: UInt64,
    at now: BrokerInstant
  ) -> BrokerDomain.Outcome {
    let before = session.focus
    let parallaxInputs = session.parallaxInputsInPlace()
    let pointerBefore = session.focus.pointerPresentation
    let effects: [FocusEffect]
    let parallax: Parallax?
    switch step {
    case .event(let event):
      effects = reduce(&session.focus, event, cause: cause)
      parallax = session.parallax
    case .remote(let input, let remote):
      (effects, parallax) = session.handle(input, from: remote)
    }
    for effect in effects {
      if case .textRejected(let reason) = effect {
        var outcome = BrokerDomain.Outcome.error(.noTextField(reason: reason))
        outcome.effects = BrokerDomain.announceRefusal(
          &session, [effect], cause: cause, epoch: epoch, at: now)
        return outcome
      }
    }
    let pointer = session.focus.pointerPresentation
    var published: [BrokerEffect] = []
    if !effects.isEmpty || pointer != pointerBefore
      || parallax != Parallax.of(before, tilt: parallaxInputs.tilt, bump: parallaxInputs.bump)
    {
      let announcement = session.announcer.announce(
        effects, before: before, after: session.focus, at: now.nanoseconds)
      session.seq += 1
      var text: [String: String] = [:]
      for effect in effects {
        if case .textChanged(let id, let value) = effect { text[id] = value }
      }
      let change = StateChange(
        screen: session.id, epoch: epoch, seq: session.seq, focused: session.focus.focused,
        changed: BrokerDomain.changedStates(before: before, after: session.focus, effects: effects),
        effects: effects, parallax: parallax, text: text,
        editingText: session.focus.isEditingText, cause: cause, announcement: announcement,
        pointer: pointer != pointerBefore ? pointer : nil)
      published = [.publish(.change(change))]
    }
    let ack = Acknowledgement(
      screen: session.id, seq: session.seq, focused: session.focus.focused, effects: effects,
      editingText: session.focus.isEditingText)
    return BrokerDomain.Outcome(reply: .ack(ack), effects: published)
  }
}
