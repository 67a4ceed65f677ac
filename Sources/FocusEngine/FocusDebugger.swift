/// The focus debugger (UIKit's `UIFocusDebugger`): answers for people and tools about why an
/// item can or cannot take focus, the group tree, the Tab loop and where an input would go.
/// Everything here reads the state; nothing changes it.
extension FocusState {
  /// Why an item can or cannot take focus.
  public struct Explanation: Sendable, Equatable {
    /// The item asked about.
    public var id: String
    /// Whether it can take focus now (focusable and not outside a trapping group).
    public var canFocus: Bool
    /// Facts for people, most important first.
    public var lines: [String]
  }

  /// One stop of the Tab loop.
  public struct TabStop: Sendable, Equatable {
    /// The group whose own items form the stop; nil for the top level's ungrouped items.
    public var group: String?
    /// The item Tab would focus there now, or nil if none of its items can take focus.
    public var entry: String?
  }

  /// Explains whether the item `id` can take focus, and how focus could get there.
  ///
  /// - Complexity: the arrow-reachability line searches from every item reached, O(n) moves.
  public func explain(_ id: String) -> Explanation {
    guard let position = index.position(of: id) else {
      var lines = ["no item \"\(id)\" in this layout"]
      if index.groupIndex[id] != nil { lines.append("\"\(id)\" is a group; explain its items") }
      return Explanation(id: id, canFocus: false, lines: lines)
    }
    var lines: [String] = []
    var canFocus = true
    if let problem = explainUnfocusable(position) {
      canFocus = false
      lines.append("\(id) cannot take focus: \(problem)")
    }
    let scope = trapScope
    if canFocus && !index.contains(group: scope, item: position) {
      canFocus = false
      lines.append(
        "\(id) cannot take focus now: focus is trapped in group \"\(index.nodes[scope].id)\"")
    }
    if canFocus {
      lines.append(id == focused ? "\(id) has focus" : "\(id) can take focus")
    }
    let group = index.groupOf(position)
    if group >= 0 {
      let chain = index.ancestors(of: group).map { index.nodes[$0].id }
      lines.append("groups: \(chain.joined(separator: " < "))")
      let last = rememberedAt[group]
      lines.append("priority: \(describe(priority(of: position, last: last)))")
      for ancestor in index.ancestors(of: group)
      where entryItem(ofGroup: ancestor, scope: -1) == position {
        lines.append("primary item of group \"\(index.nodes[ancestor].id)\"")
      }
    } else {
      lines.append("groups: none (top level)")
    }
    lines.append(focusFacts(position))
    lines.append(pointerFacts(position))
    let stops = index.tabStops
    if let stop = stops.firstIndex(of: group) {
      lines.append("Tab stop \(stop + 1) of \(stops.count)")
    }
    if canFocus, let start = focusedPosition, start != position {
      if let path = arrowPath(from: start, to: position) {
        let moves = path.map(\.rawValue).joined(separator: ", ")
        lines.append("reachable from \(itemID(at: start)) with arrows: \(moves)")
      } else {
        lines.append(
          "not reachable from \(itemID(at: start)) with arrows; use Tab or a focus request")
      }
    }
    return Explanation(id: id, canFocus: canFocus, lines: lines)
  }

  /// `pointer: hit region [84, 84, 232 × 332] (frame + 16 margin) · effect lift (automatic) ·
  /// magnetism on`.
  private func pointerFacts(_ position: Int) -> String {
    let item = itemValue(at: position)
    let frame = presentedFrame(at: position)
    let margin = item.pointerMagnetism ? layout.pointerHitMargin : 0
    func number(_ value: Double) -> String {
      value == Double(Int(value)) ? String(Int(value)) : String(value)
    }
    let region =
      "[\(number(frame.minX - margin)), \(number(frame.minY - margin)), "
      + "\(number(frame.width + 2 * margin)) × \(number(frame.height + 2 * margin))]"
    let how = item.pointerMagnetism ? "frame + \(number(margin)) margin" : "frame, no magnetism"
    let effect = Self.resolvedPointerEffect(item)
    let automatic = item.pointerEffect == .automatic ? " (automatic)" : ""
    var facts = "pointer: hit region \(region) (\(how)) · effect \(effect.rawValue)\(automatic)"
    if let shape = item.pointerShape { facts += " · shape \(shape)" }
    return facts
  }

  /// `navigation ipados (arrows stay in group "row") · search tvos · focus effect halo,
  /// corner radius 12`.
  private func focusFacts(_ position: Int) -> String {
    let navigation = navigation(forItem: position)
    var reach = ""
    if navigation == .ipados {
      let group = index.groupOf(position)
      reach =
        group >= 0
        ? " (arrows stay in group \"\(index.nodes[group].id)\")"
        : " (arrows stay among the top-level items)"
    }
    let item = itemValue(at: position)
    let effect = item.focusEffect ?? .default(for: navigation)
    let radius = item.cornerRadius.map { value in
      let whole = value == value.rounded() && abs(value) < 1e15
      return ", corner radius " + (whole ? String(Int(value)) : String(value))
    }
    return
      "navigation \(navigation.rawValue)\(reach) · search \(searchModel(forItem: position).rawValue)"
      + " · focus effect \(effect.rawValue)\(item.focusEffect == nil ? " (default)" : "")\(radius ?? "")"
  }

  private func describe(_ priority: Int) -> String {
    switch priority {
    case FocusPriority.currentlyFocused.rawValue: "currently focused (max)"
    case FocusPriority.prioritized.rawValue: "prioritized (2000)"
    case FocusPriority.previouslyFocused.rawValue: "previously focused (1000)"
    case 0: "ignored (0)"
    default: "custom (\(priority))"
    }
  }

  /// The shortest sequence of arrows from one item to another (breadth-first), or nil.
  func arrowPath(from start: Int, to goal: Int) -> [Direction]? {
    var previous = [Int: (Int, Direction)]()
    var queue = [start]
    var head = 0
    var seen: Set<Int> = [start]
    var probe = self
    while head < queue.count {
      let current = queue[head]
      head += 1
      if current == goal { break }
      probe.focused = itemID(at: current)
      for direction in Direction.allCases {
        guard let next = probe.moveDestination(from: current, direction),
          seen.insert(next).inserted
        else { continue }
        previous[next] = (current, direction)
        queue.append(next)
      }
    }
    guard seen.contains(goal) else { return nil }
    var path: [Direction] = []
    var at = goal
    while at != start, let (from, direction) = previous[at] {
      path.append(direction)
      at = from
    }
    return path.reversed()
  }

  /// The Tab loop in order, with the item each stop would focus now.
  public func tabLoop() -> [TabStop] {
    index.tabStops.map { stop in
      TabStop(
        group: stop >= 0 ? index.nodes[stop].id : nil,
        entry: stopEntry(stop, scope: -1).map { itemID(at: $0) })
    }
  }

  /// The group tree, one line per group, indented by depth, with its options and primary
  /// item.
  public func groupTree() -> [String] {
    var lines: [String] = []
    if !index.rootItems.isEmpty {
      lines.append("(top level): \(index.rootItems.count) item(s)")
    }
    for (position, node) in index.nodes.enumerated() {
      let group = index.groupValues[position]
      var options: [String] = []
      if group.trapsFocus { options.append("traps focus") }
      if group.remembersLastFocused { options.append("remembers last focused") }
      if group.selectionFollowsFocus { options.append("selection follows focus") }
      if let search = group.search { options.append("search \(search.rawValue)") }
      if let navigation = group.navigation { options.append("navigation \(navigation.rawValue)") }
      if let axis = group.scroll {
        let offset = scrollOffsets[node.id] ?? .zero
        options.append("scrolls \(axis.rawValue) at \(offset.x), \(offset.y)")
      }
      if let preferred = group.preferredFocus { options.append("prefers \(preferred)") }
      if !node.enabled { options.append("disabled") }
      let primary = entryItem(ofGroup: position, scope: -1).map { itemID(at: $0) } ?? "none"
      let indent = String(repeating: "  ", count: node.depth - 1)
      let suffix = options.isEmpty ? "" : " [\(options.joined(separator: ", "))]"
      lines.append(
        "\(indent)\(node.id): \(node.directItems.count) item(s), primary \(primary)\(suffix)")
    }
    return lines
  }
}
