import Testing

@testable import FocusEngine

/// The announcer's description against the straightforward computation it replaced (each part
/// looked up by id, the position counted through `LayoutIndex.isFocusable`, numbers grouped
/// digit by digit), on many seeded random layouts, selections and verbosities.
struct AnnouncerEquivalenceTests {
  @Test("describe says what the straightforward computation says", arguments: Array(1...60))
  func describeMatches(seed: UInt64) throws {
    var rng = SplitMix64(seed: 7_700 + seed)
    var layout =
      seed.isMultiple(of: 2)
      ? RandomLayouts.regularGrid(&rng) : RandomLayouts.anything(&rng, maxItems: 40)
    layout.verbosity = rng.pick(Verbosity.allCases)
    for position in layout.items.indices {
      if rng.chance(0.3) { layout.items[position].accessibility.label = rng.pick(["", "Named"]) }
      if rng.chance(0.3) { layout.items[position].accessibility.hint = rng.pick(["", "Opens"]) }
      if rng.chance(0.2) { layout.items[position].accessibility.value = rng.pick(["", "On"]) }
      if rng.chance(0.2) { layout.items[position].accessibility.traits = [.selected, .button] }
      if rng.chance(0.3) { layout.items[position].toggles = false }
      if rng.chance(0.3) {
        layout.items[position].content = ItemContent(
          subtitle: rng.pick(["", "Drama"]), badge: rng.pick([nil, "", "New"]))
      }
      if rng.chance(0.1) { layout.items[position].kind = .label }
      if rng.chance(0.1) {
        layout.items[position].kind = .textField
        layout.items[position].value = rng.pick(["", "typed"])
      }
      if rng.chance(0.3) { layout.items[position].selected = true }
    }
    guard var state = try? FocusState(layout: layout) else { return }
    for _ in 0..<rng.int(0...3) {
      reduce(&state, .requestFocus(.item(rng.pick(layout.items).id)))
      reduce(&state, .selectDown)
      reduce(&state, .selectUp)
    }
    let groups = state.layout.groups.flatMap(\.allIDs)
    let missing = Item(id: "missing", frame: Rect(x: 0, y: 0, width: 1, height: 1))
    for item in state.layout.items + [missing] {
      for verbosity in Verbosity.allCases {
        let was = Set(groups.filter { _ in rng.chance(0.5) })
        #expect(
          Announcer.describe(item.id, in: state, leaving: was, verbosity: verbosity)
            == Self.reference(item.id, in: state, leaving: was, verbosity: verbosity),
          "seed \(seed): \(item.id) at \(verbosity)")
      }
    }
  }

  @Test("grouped numbers match grouping digit by digit")
  func groupedMatches() {
    var rng = SplitMix64(seed: 31)
    let edges = [0, 1, -1, 9, 10, 99, 100, 999, -999, 1000, -1000, 1001, 9999, 10_000, Int.max]
    let randoms = (0..<2_000).map { _ in
      rng.int(-1_000_000_000...1_000_000_000) >> rng.int(0...30)
    }
    for value in edges + [Int.min] + randoms {
      #expect(grouped(value) == Self.referenceGrouped(value), "\(value)")
    }
    #expect(spokenPosition(1_234, of: 1_000_000) == "1,234 of 1,000,000")
  }

  static func reference(
    _ id: String, in state: FocusState, leaving was: Set<String>, verbosity: Verbosity
  ) -> [AnnouncementPart] {
    var parts: [AnnouncementPart] = []
    for group in state.labelledGroups(aroundItem: id) where !was.contains(group.id) {
      parts.append(AnnouncementPart(.group, group.label))
    }
    if let item = state.item(id) {
      let label = item.accessibility.label ?? item.title
      if !label.isEmpty { parts.append(AnnouncementPart(.label, label)) }
      let content = item.content
      if verbosity == .high, let subtitle = content.subtitle, !subtitle.isEmpty {
        parts.append(AnnouncementPart(.value, subtitle))
      }
      if verbosity != .low, let badge = content.badge, !badge.isEmpty {
        parts.append(AnnouncementPart(.value, badge))
      }
    }
    if let value = state.accessibilityValue(ofItem: id) {
      parts.append(AnnouncementPart(.value, value))
    }
    for trait in state.accessibilityTraits(ofItem: id)
    where verbosity != .low || trait == .selected {
      parts.append(AnnouncementPart(.trait, trait.spoken))
    }
    if verbosity != .low, let place = referencePosition(id, in: state), place.count > 1 {
      parts.append(
        AnnouncementPart(
          .position, "\(referenceGrouped(place.index)) of \(referenceGrouped(place.count))"))
    }
    if verbosity == .high, let hint = state.item(id)?.accessibility.hint, !hint.isEmpty {
      parts.append(AnnouncementPart(.hint, hint))
    }
    return parts
  }

  static func referencePosition(_ id: String, in state: FocusState) -> (index: Int, count: Int)? {
    let index = state.index
    guard let position = index.position(of: id), index.isFocusable(position) else { return nil }
    let group = index.groupOf(position)
    let members = group >= 0 ? index.nodes[group].directItems : index.rootItems
    let focusable = members.filter { index.isFocusable($0) }
    return focusable.firstIndex(of: position).map { ($0 + 1, focusable.count) }
  }

  static func referenceGrouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = value < 0 ? "-" : ""
    for (offset, character) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { out.append(",") }
      out.append(character)
    }
    return out
  }
}

extension Group {
  /// This group's id and its descendants'.
  fileprivate var allIDs: [String] { [id] + groups.flatMap(\.allIDs) }
}
