import Testing

@testable import FocusEngine

/// Helpers on the engine's seeded generator, so a failing seed reproduces on every machine.
extension SplitMix64 {
  /// An integer in `range`.
  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

  /// True with probability `p`.
  mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

  /// A random element (the collection must not be empty).
  mutating func pick<C: Collection>(_ values: C) -> C.Element {
    values[values.index(values.startIndex, offsetBy: int(0...(values.count - 1)))]
  }
}

/// Random layouts for the property tests.
enum RandomLayouts {
  /// A regular grid (one cell size and gap per layout) with random unavailable items, every
  /// row its own group (with random options), some rows wrapped in section groups.
  static func regularGrid(_ rng: inout SplitMix64) -> Layout {
    let rows = rng.int(2...6)
    let columns = rng.int(2...6)
    let width = Double(rng.int(1...30) * 10)
    let height = Double(rng.int(1...30) * 10)
    let gap = Double(rng.int(0...6) * 10)
    var items: [Item] = []
    var rowGroups: [Group] = []
    for row in 0..<rows {
      var ids: [String] = []
      for column in 0..<columns {
        let id = "r\(row)c\(column)"
        ids.append(id)
        items.append(
          item(
            id, Double(column) * (width + gap) - 200, Double(row) * (height + gap) - 100, width,
            height, available: !rng.chance(0.3)))
      }
      rowGroups.append(
        Group(
          id: "row\(row)", items: ids.shuffled(using: &rng),
          remembersLastFocused: rng.chance(0.5),
          preferredFocus: rng.chance(0.3) ? rng.pick(ids) : nil,
          selectionFollowsFocus: rng.chance(0.2)))
    }
    var groups: [Group] = []
    var row = 0
    while row < rows {
      let span = rng.int(1...3)
      let members = Array(rowGroups[row..<min(rows, row + span)])
      if members.count > 1 && rng.chance(0.5) {
        groups.append(Group(id: "section\(row)", groups: members))
      } else {
        groups += members
      }
      row += span
    }
    return Layout(
      items: items.shuffled(using: &rng), groups: groups.shuffled(using: &rng),
      layoutDirection: rng.chance(0.3) ? .rtl : .ltr)
  }

  /// Any layout: random frames (overlapping, off-canvas, zero-sized), a random group tree with
  /// random options, random guides. Meant to pass validation almost always.
  static func anything(
    _ rng: inout SplitMix64, maxItems: Int = 30, guides allowGuides: Bool = true,
    options: Bool = true
  ) -> Layout {
    let count = rng.int(0...maxItems)
    let items = (0..<count).map { position in
      item(
        "i\(position)", Double(rng.int(-40...200) * 10), Double(rng.int(-40...120) * 10),
        rng.chance(0.1) ? 0 : Double(rng.int(1...40) * 10),
        rng.chance(0.1) ? 0 : Double(rng.int(1...40) * 10), available: !rng.chance(0.2))
    }
    // Group k's parent is -1 (top level) or an earlier group.
    let groupCount = rng.int(0...6)
    var parents: [Int] = []
    for group in 0..<groupCount { parents.append(rng.int(-1...(group - 1))) }
    var members = [[String]](repeating: [], count: groupCount)
    if groupCount > 0 {
      for item in items where rng.chance(0.7) {
        members[rng.int(0...(groupCount - 1))].append(item.id)
      }
    }
    func build(_ group: Int) -> Group {
      let children = (0..<groupCount).filter { parents[$0] == group }.map(build)
      var value = Group(id: "g\(group)", items: members[group], groups: children)
      guard options else { return value }
      value.trapsFocus = rng.chance(0.15)
      value.remembersLastFocused = rng.chance(0.3)
      value.selectionFollowsFocus = rng.chance(0.2)
      value.search = rng.chance(0.3) ? rng.pick(SearchModel.allCases) : nil
      if rng.chance(0.3) {
        value.scroll = rng.pick(ScrollAxis.allCases)
        value.viewport = Rect(
          x: Double(rng.int(-20...100) * 10), y: Double(rng.int(-20...100) * 10),
          width: Double(rng.int(0...100) * 10), height: Double(rng.int(0...100) * 10))
        value.scrollMargin = Double(rng.int(0...100))
      }
      value.enabled = !rng.chance(0.15)
      let inside = descendants(value)
      if !inside.isEmpty && rng.chance(0.3) { value.preferredFocus = rng.pick(inside) }
      return value
    }
    let groups = (0..<groupCount).filter { parents[$0] == -1 }.map(build)
    var guides: [FocusGuide] = []
    let targets = items.map(\.id) + (0..<groupCount).map { "g\($0)" }
    if allowGuides && !targets.isEmpty {
      for guide in 0..<rng.int(0...4) {
        var destinations: [String] = []
        for _ in 0..<rng.int(1...3) {
          if guide > 0 && rng.chance(0.3) {
            destinations.append("gd\(rng.int(0...(guide - 1)))")
          } else {
            destinations.append(rng.pick(targets))
          }
        }
        guides.append(
          FocusGuide(
            id: "gd\(guide)",
            frame: Rect(
              x: Double(rng.int(-40...200) * 10), y: Double(rng.int(-40...120) * 10),
              width: Double(rng.int(0...40) * 10), height: Double(rng.int(0...40) * 10)),
            destinations: destinations, enabled: rng.chance(0.8),
            group: groupCount > 0 && rng.chance(0.3) ? "g\(rng.int(0...(groupCount - 1)))" : nil))
      }
    }
    return Layout(
      items: items, groups: groups,
      initialFocus: !items.isEmpty && rng.chance(0.3) ? rng.pick(items).id : nil,
      search: options ? rng.pick(SearchModel.allCases) : .tvos,
      layoutDirection: options && rng.chance(0.3) ? .rtl : .ltr, guides: guides)
  }

  /// Ids of the items and groups inside `group`, not counting itself.
  static func descendants(_ group: Group) -> [String] {
    group.items + group.groups.flatMap { [$0.id] + descendants($0) }
  }

  /// A random event, mostly inputs, sometimes a request, a patch or a new layout.
  static func event(_ rng: inout SplitMix64, _ state: FocusState) -> FocusEvent {
    let ids = state.layout.items.map(\.id) + ["g0", "g1", "missing"]
    switch rng.int(0...19) {
    case 0...7: return .move(rng.pick(Direction.allCases))
    case 8...9: return .tab(rng.pick(TabDirection.allCases))
    case 10: return .selectDown
    case 11: return .selectUp
    case 12: return .requestFocus(.item(rng.pick(ids)))
    case 13: return .requestFocus(.group(rng.pick(ids)))
    case 14: return .requestFocus(.any(rng.pick(ids)))
    case 15: return .replaceLayout(anything(&rng, maxItems: 12))
    default: return .applyPatch(patch(&rng, ids))
    }
  }

  static func patch(_ rng: inout SplitMix64, _ ids: [String]) -> LayoutPatch {
    var operations: [LayoutPatch.Operation] = []
    for _ in 0..<rng.int(1...3) {
      let id = rng.pick(ids)
      let frame = Rect(
        x: Double(rng.int(-40...200) * 10), y: Double(rng.int(-40...120) * 10),
        width: Double(rng.int(-1...40) * 10), height: Double(rng.int(0...40) * 10))
      let operation: LayoutPatch.Operation =
        switch rng.int(0...9) {
        case 0: .addItem(Item(id: "new\(rng.int(0...5))", frame: frame), group: rng.pick(ids))
        case 1: .removeItem(id)
        case 2: .moveItem(id, frame: frame)
        case 3: .setItemAvailable(id, rng.chance(0.5))
        case 4: .addGroup(Group(id: "ng\(rng.int(0...3))", items: [id]), parent: nil)
        case 5: .removeGroup(id)
        case 6: .setGroupEnabled(id, rng.chance(0.5))
        case 7:
          .addGuide(FocusGuide(id: "ngd\(rng.int(0...3))", frame: frame, destinations: [id]))
        case 8: .removeGuide("gd\(rng.int(0...3))")
        default: .setGuideEnabled("gd\(rng.int(0...3))", rng.chance(0.5))
        }
      operations.append(operation)
    }
    return LayoutPatch(operations)
  }
}

/// The directional search written again from the spec, as a linear scan: the reference the
/// grid-indexed search must agree with.
enum ReferenceSearch {
  static func isCandidate(_ s: Rect, _ d: Rect, _ direction: Direction) -> Bool {
    switch direction {
    case .right: (s.minX < d.minX || s.maxX <= d.minX) && s.maxX < d.maxX
    case .left: (s.maxX > d.maxX || s.minX >= d.maxX) && s.minX > d.minX
    case .down: (s.minY < d.minY || s.maxY <= d.minY) && s.maxY < d.maxY
    case .up: (s.maxY > d.maxY || s.minY >= d.maxY) && s.minY > d.minY
    }
  }

  static func inBeam(_ s: Rect, _ d: Rect, _ direction: Direction) -> Bool {
    switch direction {
    case .left, .right: d.maxY > s.minY && d.minY < s.maxY
    case .up, .down: d.maxX > s.minX && d.minX < s.maxX
    }
  }

  static func major(_ s: Rect, _ d: Rect, _ direction: Direction) -> Double {
    let raw =
      switch direction {
      case .right: d.minX - s.maxX
      case .left: s.minX - d.maxX
      case .down: d.minY - s.maxY
      case .up: s.minY - d.maxY
      }
    return max(0, raw)
  }

  static func minor(_ s: Rect, _ d: Rect, _ direction: Direction) -> Double {
    switch direction {
    case .left, .right: abs((s.minY + s.height / 2) - (d.minY + d.height / 2))
    case .up, .down: abs((s.minX + s.width / 2) - (d.minX + d.width / 2))
    }
  }

  /// Reading order over content frames: top to bottom, leading to trailing, declaration.
  static func readingOrder(_ layout: Layout) -> [Int] {
    let rtl = layout.layoutDirection == .rtl
    return layout.items.indices.sorted { a, b in
      let fa = layout.items[a].frame
      let fb = layout.items[b].frame
      if fa.minY != fb.minY { return fa.minY < fb.minY }
      let la = rtl ? -fa.maxX : fa.minX
      let lb = rtl ? -fb.maxX : fb.minX
      return la != lb ? la < lb : a < b
    }
  }

  /// The innermost trapping group whose subtree holds the item, if any.
  static func trap(around id: String, in groups: [Group]) -> Group? {
    for group in groups where RandomLayouts.descendants(group).contains(id) {
      return trap(around: id, in: group.groups) ?? (group.trapsFocus ? group : nil)
    }
    return nil
  }

  /// A rectangle in whole points, each edge rounded as the engine rounds it.
  static func javaRect(_ rect: Rect) -> JavaRect {
    JavaRect(
      left: Int32(rect.minX.rounded()), top: Int32(rect.minY.rounded()),
      right: Int32(rect.maxX.rounded()), bottom: Int32(rect.maxY.rounded()))
  }

  /// Where a move from `id` goes among focusable items, inside its trap (no guides or
  /// memories).
  static func destination(
    _ state: FocusState, from id: String, _ direction: Direction, model: SearchModel
  ) -> String? {
    guard let source = state.presentedFrame(of: id) else { return nil }
    // Arrows stay inside the innermost trapping group around the source.
    let scope = trap(around: id, in: state.layout.groups).map { Set(RandomLayouts.descendants($0)) }
    if model == .android {
      // AOSP's loop over the focusables in declaration order (see AOSPFocusFinder).
      var focusables: [(rect: JavaRect, id: String)] = []
      for item in state.layout.items {
        let candidate = item.id
        guard
          candidate == id || (state.isFocusable(candidate) && scope?.contains(candidate) ?? true),
          let frame = state.presentedFrame(of: candidate)
        else { continue }
        // Android's integers: the rounded content frame, moved by the rounded scroll offset.
        var rect = javaRect(item.frame)
        rect.offset(
          -Int32((item.frame.x - frame.x).rounded()), -Int32((item.frame.y - frame.y).rounded()))
        focusables.append((rect, candidate))
      }
      let sourceRect = focusables.first { $0.id == id }?.rect ?? javaRect(source)
      var finder = AOSPFocusFinder()
      return finder.findNextFocusInAbsoluteDirection(
        focusables.map(\.rect), focusables.firstIndex { $0.id == id }, sourceRect,
        DifferentialCase.javaDirection(direction)
      ).map { focusables[$0].id }
    }
    var best: (frame: Rect, id: String)?
    for position in readingOrder(state.layout) {
      let candidate = state.layout.items[position].id
      guard candidate != id, state.isFocusable(candidate), scope?.contains(candidate) ?? true,
        let frame = state.presentedFrame(of: candidate),
        isCandidate(source, frame, direction), inBeam(source, frame, direction)
      else { continue }
      if let current = best {
        let key = (major(source, frame, direction), minor(source, frame, direction))
        let old = (major(source, current.frame, direction), minor(source, current.frame, direction))
        guard key < old else { continue }  // Equal keys keep the earlier item.
      }
      best = (frame, candidate)
    }
    return best?.id
  }
}

@Suite("Property tests over random layouts (seeded)")
struct FocusPropertyTests {
  static let seeds: [UInt64] = Array(1...40)

  /// Checks the invariants every state must satisfy.
  static func checkInvariants(_ state: FocusState, seed: UInt64, _ context: String) {
    if let focused = state.focused {
      #expect(state.isFocusable(focused), "seed \(seed): focused \(focused) \(context)")
    } else {
      #expect(
        !state.layout.items.contains { state.isFocusable($0.id) },
        "seed \(seed): no focus although something is focusable \(context)")
    }
    if let pressed = state.pressed {
      #expect(pressed == state.focused, "seed \(seed): pressed \(pressed) \(context)")
    }
  }

  @Test(
    "tvOS, regular grid: every available item reaches every other by arrows and Tab",
    arguments: seeds)
  func reachability(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let layout = RandomLayouts.regularGrid(&rng)
    let available = layout.items.filter(\.available).map(\.id)
    let events: [FocusEvent] =
      Direction.allCases.map { .move($0) } + [.tab(.next), .tab(.previous)]
    for start in available {
      var initial = try FocusState(layout: layout)
      reduce(&initial, .requestFocus(.item(start)))
      try #require(initial.focused == start, "seed \(seed)")
      var seen: Set<String> = [start]
      var queue = [initial]
      var head = 0
      while head < queue.count {
        let current = queue[head]
        head += 1
        for event in events {
          var next = current
          reduce(&next, event)
          Self.checkInvariants(next, seed: seed, "after \(event) from \(current.focused ?? "nil")")
          if let focused = next.focused, seen.insert(focused).inserted { queue.append(next) }
        }
      }
      #expect(
        seen == Set(available),
        "seed \(seed): from \(start) unreachable: \(Set(available).subtracting(seen).sorted())")
    }
  }

  @Test(
    "a full grid without groups is connected by arrows alone, in both models",
    arguments: Array(seeds.prefix(10)))
  func arrowsAlone(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    var layout = RandomLayouts.regularGrid(&rng)
    layout.groups = []
    for position in layout.items.indices { layout.items[position].available = true }
    for model in SearchModel.allCases {
      layout.search = model
      let state = try FocusState(layout: layout)
      for source in layout.items {
        var seen: Set<String> = [source.id]
        var stack = [source.id]
        while let current = stack.popLast() {
          for direction in Direction.allCases {
            if let next = state.destination(from: current, direction),
              seen.insert(next).inserted
            {
              stack.append(next)
            }
          }
        }
        #expect(seen.count == layout.items.count, "seed \(seed) \(model) from \(source.id)")
      }
    }
  }

  @Test(
    "the reducer keeps its invariants on random accepted layouts and random events",
    arguments: seeds)
  func randomEvents(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    var accepted = 0
    for _ in 0..<10 {
      let layout = RandomLayouts.anything(&rng)
      guard (try? layout.validate()) != nil else { continue }
      accepted += 1
      var state = try FocusState(layout: layout)
      Self.checkInvariants(state, seed: seed, "initially")
      for step in 0..<60 {
        let event = RandomLayouts.event(&rng, state)
        let before = state
        let trap = before.trapScope
        let effects = reduce(&state, event)
        let context = "step \(step), \(event)"
        Self.checkInvariants(state, seed: seed, context)
        for effect in effects {
          switch effect {
          case .focusChanged(let update):
            #expect(update.next == state.focused, "seed \(seed): \(context)")
          case .movementFailed, .layoutRejected, .focusRequestDenied:
            #expect(effects.count == 1, "seed \(seed): \(context)")
            #expect(state == before, "seed \(seed): a refusal changed the state, \(context)")
          case .activated(let id), .highlighted(let id):
            #expect(before.isFocusable(id), "seed \(seed): \(context)")
          default: break
          }
        }
        // Replacing the layout with itself changes nothing.
        var same = state
        #expect(reduce(&same, .replaceLayout(state.layout)) == [], "seed \(seed): \(context)")
        #expect(same == state, "seed \(seed): replacing with the same layout, \(context)")
        // Arrows and Tab never leave a trapping group.
        switch event {
        case .move, .tab:
          if trap >= 0, let position = state.focusedPosition {
            #expect(
              state.index.contains(group: trap, item: position),
              "seed \(seed): escaped a trap, \(context)")
          }
        default: break
        }
      }
    }
    #expect(accepted >= 8, "seed \(seed): only \(accepted) of 10 random layouts were valid")
  }

  @Test(
    "Tab visits every stop that has a focusable item once per cycle; Shift-Tab undoes Tab",
    arguments: seeds)
  func tabCycle(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    for round in 0..<10 {
      let layout = RandomLayouts.anything(&rng, maxItems: 20, guides: false, options: false)
      let state = try FocusState(layout: layout)
      guard let start = state.focused else { continue }
      let live = state.tabLoop().filter { $0.entry != nil }
      let context = "seed \(seed) round \(round)"
      var tab = state
      var visited: [String?] = []
      for _ in 0..<live.count {
        let effects = reduce(&tab, .tab(.next))
        if live.count == 1 {
          #expect(effects == [.movementFailed(.next)], "\(context)")
        }
        visited.append(tab.focused.flatMap { tab.groupID(of: $0) })
      }
      #expect(visited.last == state.groupID(of: start), "\(context): back to the start stop")
      #expect(Set(visited).count == live.count, "\(context): stops visited \(visited)")

      var there = state
      if reduce(&there, .tab(.next)) != [.movementFailed(.next)], state.groupID(of: start) != nil {
        reduce(&there, .tab(.previous))
        #expect(there.focused == start, "\(context): Shift-Tab after Tab")
      }
    }
  }

  @Test(
    "EPG: after every input the focused cell lies inside its row's and the page's viewports",
    arguments: seeds)
  func scrolledIntoView(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let pageAxis: ScrollAxis = rng.chance(0.5) ? .vertical : .both
    var items: [Item] = []
    var rows: [Group] = []
    for row in 0..<rng.int(2...12) {
      var ids: [String] = []
      var x = 0.0
      let length = Double(rng.int(150...600) * 10)
      while x < length {
        let width = Double(rng.int(5...40) * 10)
        let id = "r\(row)c\(ids.count)"
        ids.append(id)
        items.append(item(id, x, Double(row) * 240, width, 200, available: !rng.chance(0.1)))
        x += width + Double(rng.int(0...4) * 10)
      }
      rows.append(
        Group(
          id: "row\(row)", items: ids, scroll: .horizontal,
          viewport: Rect(x: 0, y: Double(row) * 240, width: 1000, height: 200)))
    }
    let layout = Layout(
      items: items,
      groups: [
        Group(
          id: "page", groups: rows, scroll: pageAxis,
          viewport: Rect(x: 0, y: 0, width: 1000, height: 500))
      ])
    var state = try FocusState(layout: layout)
    for step in 0..<200 {
      let event: FocusEvent =
        switch rng.int(0...9) {
        case 0...7: .move(rng.pick(Direction.allCases))
        case 8: .tab(rng.pick(TabDirection.allCases))
        default: .requestFocus(.item(rng.pick(items).id))
        }
      reduce(&state, event)
      guard let focused = state.focused, let frame = state.presentedFrame(of: focused),
        let row = state.groupID(of: focused), let viewport = state.group(row)?.viewport
      else { continue }
      let page = state.scrollOffsets["page"] ?? .zero
      let rowView = viewport.offsetBy(dx: -page.x, dy: -page.y)
      let context = "seed \(seed) step \(step) \(event): \(focused) at \(frame)"
      #expect(frame.minX >= rowView.minX && frame.maxX <= rowView.maxX, "row: \(context)")
      #expect(frame.minY >= 0 && frame.maxY <= 500, "page: \(context)")
      #expect(frame.minX >= 0 && frame.maxX <= 1000, "page: \(context)")
    }
  }

  @Test(
    "the grid-indexed search equals a brute-force scan of the spec, both models",
    arguments: seeds)
  func gridMatchesReference(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    for round in 0..<5 {
      var layout = RandomLayouts.anything(&rng, maxItems: 60, guides: false, options: false)
      // Keep the scroll groups (several spatial grids, shifted) but nothing that redirects.
      func strip(_ group: inout Group) {
        if rng.chance(0.4) {
          group.scroll = rng.pick(ScrollAxis.allCases)
          group.viewport = Rect(
            x: Double(rng.int(0...50) * 10), y: Double(rng.int(0...50) * 10), width: 400,
            height: 300)
        }
        group.trapsFocus = rng.chance(0.2)
        for child in group.groups.indices { strip(&group.groups[child]) }
      }
      for group in layout.groups.indices { strip(&layout.groups[group]) }
      layout.search = rng.pick(SearchModel.allCases)
      layout.layoutDirection = rng.chance(0.5) ? .rtl : .ltr
      var state = try FocusState(layout: layout)
      // Focus a few items so the scroll groups have offsets.
      for _ in 0..<3 where !layout.items.isEmpty {
        reduce(&state, .requestFocus(.item(rng.pick(layout.items).id)))
      }
      for source in layout.items where state.isFocusable(source.id) {
        for direction in Direction.allCases {
          let expected = ReferenceSearch.destination(
            state, from: source.id, direction, model: layout.search)
          #expect(
            state.destination(from: source.id, direction) == expected,
            "seed \(seed) round \(round) \(layout.search): \(source.id) \(direction)")
        }
      }
    }
  }
}
