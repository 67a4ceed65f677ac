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

  @Test(
    "announce reads both focused items at their positions as a lookup by id would",
    arguments: Array(1...40))
  func announceMatches(seed: UInt64) throws {
    var rng = SplitMix64(seed: 9_100 + seed)
    var layout = RandomLayouts.anything(&rng, maxItems: 30)
    layout.verbosity = rng.pick(Verbosity.allCases)
    layout.groups = layout.groups.map { Self.labelled($0, &rng) }
    guard var state = try? FocusState(layout: layout) else { return }
    var announcer = Announcer()
    for step in 0..<120 {
      let before = state
      let event = RandomLayouts.event(&rng, state)
      let effects = reduce(&state, event)
      let time = UInt64(step) * 700_000_000
      // The in-place form, on the tables after the step, when the step kept them.
      var inPlace = announcer
      let said = announcer.announce(effects, before: before, after: state, at: time)
      if event.keepsLayoutTables {
        #expect(
          inPlace.announce(effects, from: before.prior, in: state, after: state, at: time) == said,
          "seed \(seed), step \(step): \(event)")
      }
      // The description as the straightforward computation gives it: both items looked up
      // by id, first in what was said.
      let moved = effects.contains {
        if case .focusChanged = $0 { return true }
        return false
      }
      let recovered = effects.contains {
        if case .focusChanged(let context) = $0 { return context.heading == .recovery }
        return false
      }
      if moved, let next = state.focused, next != before.focused || recovered {
        let was = before.focused.map { before.groupIDs(aroundItem: $0) } ?? []
        let expected = Self.reference(
          next, in: state, leaving: Set(was), verbosity: state.layout.verbosity)
        #expect(
          Array((said?.parts ?? []).prefix(expected.count)) == expected,
          "seed \(seed), step \(step): \(event)")
      }
      let focus = state.focused.map {
        Self.reference($0, in: state, leaving: [], verbosity: state.layout.verbosity)
      }
      #expect(
        announcer.announceFocus(in: state)?.parts == (focus?.isEmpty == false ? focus : nil),
        "seed \(seed), step \(step)")
    }
  }

  /// `group` and its nested groups, some given a spoken label (some empty).
  static func labelled(_ group: Group, _ rng: inout SplitMix64) -> Group {
    var group = group
    if rng.chance(0.6) { group.accessibilityLabel = rng.pick(["Row", "Shelf", ""]) }
    group.groups = group.groups.map { labelled($0, &rng) }
    return group
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

  @Test("a spoken position written digit by digit matches the interpolated grouped numbers")
  func spokenPositionMatches() {
    // Every pair below a thousand that a count of a few edges meets, then seeded pairs on
    // both sides of the fast path's bounds (negative, a thousand and more).
    let edges = [0, 1, 9, 10, 11, 99, 100, 101, 500, 998, 999]
    for index in -1...1_001 {
      for count in edges + [index, 1_000] {
        #expect(
          spokenPosition(index, of: count)
            == "\(Self.referenceGrouped(index)) of \(Self.referenceGrouped(count))",
          "\(index) of \(count)")
      }
    }
    var rng = SplitMix64(seed: 47)
    for _ in 0..<2_000 {
      let index = rng.int(-2_000...2_000) >> rng.int(0...10)
      let count = rng.int(-2_000...2_000_000) >> rng.int(0...20)
      #expect(
        spokenPosition(index, of: count)
          == "\(Self.referenceGrouped(index)) of \(Self.referenceGrouped(count))",
        "\(index) of \(count)")
    }
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
