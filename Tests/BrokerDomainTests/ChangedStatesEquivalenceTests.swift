import FocusEngine
import Testing

@testable import BrokerDomain

/// The changed display states of a step against the straightforward computation (every
/// touched item's state looked up by id in both states), on seeded random grids and histories.
struct ChangedStatesEquivalenceTests {
  @Test("changed states match the by-id computation", arguments: Array(UInt64(1)...40))
  func matches(seed: UInt64) throws {
    var rng = SplitMix64(seed: 4_100 + seed)
    var layout = Layout(items: [], groups: [])
    let rows = Int.random(in: 1...5, using: &rng)
    let columns = Int.random(in: 1...6, using: &rng)
    var rowGroups: [Group] = []
    for row in 0..<rows {
      var ids: [String] = []
      for column in 0..<columns {
        var item = Item(
          id: "r\(row)c\(column)", title: "R\(row)C\(column)",
          frame: Rect(x: Double(column) * 120, y: Double(row) * 90, width: 100, height: 80),
          available: Double.random(in: 0..<1, using: &rng) > 0.2,
          toggles: Bool.random(using: &rng), selected: Double.random(in: 0..<1, using: &rng) < 0.3)
        if Double.random(in: 0..<1, using: &rng) < 0.1 { item.kind = .textField }
        layout.items.append(item)
        ids.append(item.id)
      }
      rowGroups.append(Group(id: "row\(row)", items: ids))
    }
    if Bool.random(using: &rng) { layout.groups = rowGroups }
    var state = try FocusState(layout: layout)
    let events: [FocusEvent] =
      Direction.allCases.map { .move($0) } + [
        .tab(.next), .tab(.previous), .selectDown, .selectUp, .cancelSelect,
        .text(.append("a")),
      ]
    for step in 0..<200 {
      let before = state
      let event =
        Int.random(in: 0..<10, using: &rng) == 0
        ? FocusEvent.requestFocus(.item(layout.items.randomElement(using: &rng)!.id))
        : events.randomElement(using: &rng)!
      let effects = reduce(&state, event)
      #expect(
        state.focusedDisplayState == state.focused.flatMap { state.displayState(of: $0) },
        "seed \(seed), step \(step)")
      #expect(
        BrokerDomain.changedStates(before: before, after: state, effects: effects)
          == Self.reference(before: before, after: state, effects: effects),
        "seed \(seed), step \(step): \(event)")
    }
  }

  static func reference(before: FocusState, after: FocusState, effects: [FocusEffect])
    -> [ItemStateChange]
  {
    var changed: [ItemStateChange] = []
    func touch(_ id: String?) {
      guard let id, !changed.contains(where: { $0.id == id }),
        let new = after.displayState(of: id), new != before.displayState(of: id)
      else { return }
      changed.append(ItemStateChange(id: id, state: new))
    }
    touch(before.focused)
    touch(after.focused)
    for effect in effects {
      switch effect {
      case .focusChanged(let context):
        touch(context.previous)
        touch(context.next)
      case .highlighted(let id), .activated(let id), .selectionChanged(let id, _): touch(id)
      default: break
      }
    }
    return changed
  }
}
