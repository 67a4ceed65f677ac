extension Layout {
  /// The longest pointer idle timeout a layout accepts, in seconds (an hour).
  public static let maximumPointerIdleTimeout = 3600.0
  /// The largest pointer hit margin, in points.
  public static let maximumPointerHitMargin = 1000.0

  /// The pointer options: a finite hit margin of 0 to ``maximumPointerHitMargin`` and an idle
  /// timeout above 0 and at most ``maximumPointerIdleTimeout``.
  static func checkPointerOptions(_ layout: Layout) throws(LayoutError) {
    let margin = layout.pointerHitMargin
    if !(margin.isFinite && margin >= 0 && margin <= maximumPointerHitMargin) {
      throw LayoutError(
        path: "pointerHitMargin",
        reason: "must be between 0 and \(maximumPointerHitMargin), got \(margin)")
    }
    let timeout = layout.pointerIdleTimeout
    if !(timeout.isFinite && timeout > 0 && timeout <= maximumPointerIdleTimeout) {
      throw LayoutError(
        path: "pointerIdleTimeout",
        reason: "must be above 0 and at most \(maximumPointerIdleTimeout), got \(timeout)")
    }
  }

  /// The longest id a layout accepts, in characters (``TextRules/maximumIDLength``).
  public static let maximumIDLength = TextRules.maximumIDLength
  /// The longest title, text field value or layer name, in UTF-8 bytes.
  public static let maximumTextLength = 4096
  /// The most items a layout may hold.
  public static let maximumItemCount = 100_000
  /// The deepest group nesting a layout may have (top-level groups are depth 1).
  public static let maximumGroupDepth = 64
  /// The most size runs (``SizeRuns``) all the virtual groups of a layout may declare
  /// together: each group may have up to ``VirtualItems/maximumSizeRuns``, and this bounds
  /// what many such groups cost a screen's session (32 bytes a run, so at most 32 MB of
  /// tables, about what the 100,000-item listed limit costs).
  public static let maximumSizeRunCount = 1_000_000

  /// Checks that the layout is well formed, throwing the first problem in document order.
  ///
  /// The rules: the canvas is finite and positive; item ids follow ``TextRules`` (non-empty,
  /// at most ``maximumIDLength`` characters of `A-Z a-z 0-9 - _ . : / @`) and are unique among
  /// items; titles, values, layer names and accessibility labels, hints and values (items'
  /// and groups') are free text by ``TextRules`` (no control characters, no unpaired
  /// bidirectional controls) of at most ``maximumTextLength`` bytes; frames are finite with
  /// non-negative width and height, corner radii finite and not negative; group ids follow the
  /// same character rules and are unique among groups (a group may share an id with an item);
  /// every item a group names exists and sits in at most one group; groups nest at most
  /// ``maximumGroupDepth`` deep; a scrolling group has a viewport; `preferredFocus` names an item or group inside its
  /// group; guides have unique ids distinct from items and groups, known destinations and
  /// group, and their guide-to-guide references form no cycle; `initialFocus`, if set, names
  /// an item. Errors carry JSON-style paths: `canvas.width`, `items[3].frame`,
  /// `groups[1].groups[0].items[2]`, `guides[0].destinations[1]`, `initialFocus`.
  ///
  /// - Complexity: O(n) in the number of items, group entries and guide destinations.
  public func validate() throws(LayoutError) {
    try Self.checkCanvas(canvas)
    if items.count > Self.maximumItemCount {
      throw LayoutError(
        path: "items",
        reason: "\(items.count) items (at most \(Self.maximumItemCount))")
    }
    // Item id → its index. Paths are written only for an error: building them for every item
    // was a fifth of a large layout's validation.
    var itemIndices: [String: Int] = [:]
    itemIndices.reserveCapacity(items.count)
    for (index, item) in items.enumerated() {
      func path() -> String { "items[\(index)]" }
      try Self.checkID(item.id, path: path() + ".id")
      if let first = itemIndices[item.id] {
        throw LayoutError(
          path: path() + ".id",
          reason: "duplicate id \"\(item.id)\" (first used by items[\(first)])")
      }
      itemIndices[item.id] = index
      try Self.checkFrame(item.frame, path: path() + ".frame")
      for (position, layer) in item.layers.enumerated()
      where !(layer.depth.isFinite && layer.depth >= 0 && layer.depth <= 1) {
        throw LayoutError(
          path: "\(path()).layers[\(position)].depth",
          reason: "must be between 0 and 1, got \(layer.depth)")
      }
      if let radius = item.cornerRadius, !(radius.isFinite && radius >= 0) {
        throw LayoutError(
          path: path() + ".cornerRadius", reason: "must be finite and at least 0, got \(radius)")
      }
      if let shape = item.pointerShape { try Self.checkID(shape, path: path() + ".pointerShape") }
      try Self.checkText(item.title, path: path() + ".title", item: item.id)
      try Self.checkText(item.value, path: path() + ".value", item: item.id)
      try Self.checkAccessibility(item, path: path())
      try Self.checkContent(item, path: path())
      for (position, layer) in item.layers.enumerated() {
        try Self.checkText(layer.name, path: "\(path()).layers[\(position)].name", item: item.id)
      }
    }
    try Self.checkPointerOptions(self)
    var walk = GroupWalk(itemIndices: itemIndices)
    for (index, group) in groups.enumerated() {
      try walk.check(group, path: "groups[\(index)]", depth: 1)
    }
    try Self.checkGuides(guides, itemIndices: itemIndices, groupPaths: walk.groupPaths)
    if let initialFocus, itemIndices[initialFocus] == nil, !walk.namesVirtualItem(initialFocus) {
      throw LayoutError(path: "initialFocus", reason: "unknown item \"\(initialFocus)\"")
    }
  }

  private static func checkCanvas(_ canvas: Size) throws(LayoutError) {
    for (name, value) in [("width", canvas.width), ("height", canvas.height)]
    where !(value.isFinite && value > 0) {
      throw LayoutError(
        path: "canvas.\(name)", reason: "must be finite and greater than 0, got \(value)")
    }
  }

  private static func checkGuides(
    _ guides: [FocusGuide], itemIndices: [String: Int], groupPaths: [String: String]
  ) throws(LayoutError) {
    var guidePaths: [String: String] = [:]
    for (index, guide) in guides.enumerated() {
      let path = "guides[\(index)]"
      try checkID(guide.id, path: path + ".id")
      if let first = guidePaths[guide.id] ?? itemIndices[guide.id].map({ "items[\($0)]" })
        ?? groupPaths[guide.id]
      {
        throw LayoutError(
          path: path + ".id", reason: "duplicate id \"\(guide.id)\" (first used by \(first))")
      }
      guidePaths[guide.id] = path
      try checkFrame(guide.frame, path: path + ".frame")
      if let group = guide.group, groupPaths[group] == nil {
        throw LayoutError(path: path + ".group", reason: "unknown group \"\(group)\"")
      }
    }
    for (index, guide) in guides.enumerated() {
      let path = "guides[\(index)].destinations"
      if guide.destinations.isEmpty {
        throw LayoutError(path: path, reason: "a guide needs at least one destination")
      }
      for (position, destination) in guide.destinations.enumerated()
      where itemIndices[destination] == nil && groupPaths[destination] == nil
        && guidePaths[destination] == nil
      {
        throw LayoutError(
          path: "\(path)[\(position)]", reason: "unknown item, group or guide \"\(destination)\"")
      }
    }
    // Guide → guide references must not loop: a guide that redirects to itself, directly or
    // through others, could never resolve.
    let byID = Dictionary(uniqueKeysWithValues: guides.enumerated().map { ($1.id, $0) })
    var state = [UInt8](repeating: 0, count: guides.count)  // 0 new, 1 on the path, 2 done
    func visit(_ index: Int, _ chain: [String]) throws(LayoutError) {
      if state[index] == 2 { return }
      let guide = guides[index]
      if state[index] == 1 {
        let cycle = (chain + [guide.id]).joined(separator: " → ")
        throw LayoutError(path: "guides[\(index)].destinations", reason: "cyclic guides: \(cycle)")
      }
      state[index] = 1
      for destination in guide.destinations
      where itemIndices[destination] == nil && groupPaths[destination] == nil {
        if let next = byID[destination] { try visit(next, chain + [guide.id]) }
      }
      state[index] = 2
    }
    for index in guides.indices { try visit(index, []) }
  }

  static func checkFrame(_ frame: Rect, path: @autoclosure () -> String) throws(LayoutError) {
    // The common case without building the list below (an allocation per frame).
    if frame.x.isFinite, frame.y.isFinite, frame.width.isFinite, frame.height.isFinite,
      frame.width >= 0, frame.height >= 0
    {
      return
    }
    let parts = [
      ("x", frame.x), ("y", frame.y), ("width", frame.width), ("height", frame.height),
    ]
    for (name, value) in parts where !value.isFinite {
      throw LayoutError(path: path(), reason: "\(name) must be finite, got \(value)")
    }
    for (name, value) in parts.dropFirst(2) where value < 0 {
      throw LayoutError(path: path(), reason: "\(name) must not be negative, got \(value)")
    }
  }

  /// Checks an item, group or guide id by ``TextRules/idProblem(_:maximumLength:)``.
  static func checkID(_ id: String, path: @autoclosure () -> String) throws(LayoutError) {
    if let problem = TextRules.idProblem(id, maximumLength: maximumIDLength) {
      throw LayoutError(path: path(), reason: "id " + problem)
    }
  }

  /// Checks an item's accessibility label, hint and value like its title.
  static func checkAccessibility(_ item: Item, path: @autoclosure () -> String) throws(LayoutError)
  {
    let accessibility = item.accessibility
    guard accessibility.label != nil || accessibility.hint != nil || accessibility.value != nil
    else { return }
    let fields: [(String, String?)] = [
      ("accessibilityLabel", item.accessibility.label),
      ("accessibilityHint", item.accessibility.hint),
      ("accessibilityValue", item.accessibility.value),
    ]
    for case (let name, let text?) in fields {
      try checkText(text, path: "\(path()).\(name)", item: item.id)
    }
  }

  /// Checks an item's subtitle, body and badge like its title, its image reference by
  /// ``ItemContent/imageProblem(_:)`` and its accent by ``ItemContent/accentProblem(_:)``.
  static func checkContent(_ item: Item, path: @autoclosure () -> String) throws(LayoutError) {
    let content = item.content
    guard !content.isEmpty else { return }
    let fields: [(String, String?)] = [
      ("subtitle", content.subtitle), ("body", content.body), ("badge", content.badge),
    ]
    for case (let name, let text?) in fields {
      try checkText(text, path: "\(path()).\(name)", item: item.id)
    }
    if let image = content.image, let problem = ItemContent.imageProblem(image) {
      throw LayoutError(path: path() + ".image", reason: "item \"\(item.id)\" image " + problem)
    }
    if let accent = content.accent, let problem = ItemContent.accentProblem(accent) {
      throw LayoutError(path: path() + ".accent", reason: "item \"\(item.id)\" accent " + problem)
    }
  }

  /// Checks a group's free text like an item's title; the reason names the group.
  static func checkGroupText(_ text: String, path: @autoclosure () -> String, group: String)
    throws(LayoutError)
  {
    if text.utf8.count > maximumTextLength {
      throw LayoutError(
        path: path(),
        reason: "group \"\(group)\": \(text.utf8.count) bytes (at most \(maximumTextLength))")
    }
    if let problem = TextRules.textProblem(text) {
      throw LayoutError(path: path(), reason: "group \"\(group)\" " + problem)
    }
  }

  /// Checks a title, value or name: free text by ``TextRules/textProblem(_:)``, at most
  /// ``maximumTextLength`` bytes. The reason names `item` (an id already checked).
  static func checkText(_ text: String, path: @autoclosure () -> String, item: String)
    throws(LayoutError)
  {
    if text.utf8.count > maximumTextLength {
      throw LayoutError(
        path: path(),
        reason: "item \"\(item)\": \(text.utf8.count) bytes (at most \(maximumTextLength))")
    }
    if let problem = TextRules.textProblem(text) {
      throw LayoutError(path: path(), reason: "item \"\(item)\" " + problem)
    }
  }
}

/// The depth-first walk over the group tree that `validate()` performs.
private struct GroupWalk {
  /// Item id → its index, for known-item checks.
  let itemIndices: [String: Int]
  /// Group id → its path, for uniqueness.
  var groupPaths: [String: String] = [:]
  /// Item id → the id of the group that claimed it.
  var owners: [String: String] = [:]
  /// Virtual group id → its item count.
  var virtualCounts: [String: Int] = [:]
  /// The size runs of the virtual groups checked so far.
  var sizeRuns = 0

  /// Whether `id` is `group#index` of a virtual group seen so far, with index in range.
  func namesVirtualItem(_ id: String) -> Bool {
    guard let (group, index) = VirtualItems.parse(id), let count = virtualCounts[String(group)]
    else { return false }
    return index < count
  }

  mutating func check(_ group: Group, path: @autoclosure () -> String, depth: Int)
    throws(LayoutError)
  {
    try Layout.checkID(group.id, path: path() + ".id")
    if depth > Layout.maximumGroupDepth {
      throw LayoutError(
        path: path(), reason: "groups nest deeper than \(Layout.maximumGroupDepth) levels")
    }
    if let first = groupPaths[group.id] {
      throw LayoutError(
        path: path() + ".id", reason: "duplicate group id \"\(group.id)\" (first used by \(first))")
    }
    groupPaths[group.id] = path()
    for (index, member) in group.items.enumerated() {
      func memberPath() -> String { "\(path()).items[\(index)]" }
      guard itemIndices[member] != nil else {
        throw LayoutError(path: memberPath(), reason: "unknown item \"\(member)\"")
      }
      if let owner = owners[member] {
        throw LayoutError(
          path: memberPath(), reason: "item \"\(member)\" is already in group \"\(owner)\"")
      }
      owners[member] = group.id
    }
    for (index, child) in group.groups.enumerated() {
      try check(child, path: "\(path()).groups[\(index)]", depth: depth + 1)
    }
    if let virtual = group.virtual {
      try Layout.checkVirtual(virtual, group, path: path() + ".virtual")
      virtualCounts[group.id] = virtual.count
      if let sizes = virtual.sizes {
        sizeRuns += sizes.runs.count
        if sizeRuns > Layout.maximumSizeRunCount {
          throw LayoutError(
            path: path() + ".virtual.sizes",
            reason:
              "the layout's virtual groups declare \(sizeRuns) size runs so far (at most \(Layout.maximumSizeRunCount) in all)"
          )
        }
      }
    }
    if group.scroll != nil, group.viewport == nil {
      throw LayoutError(path: path() + ".viewport", reason: "a scrolling group needs a viewport")
    }
    if let viewport = group.viewport {
      try Layout.checkFrame(viewport, path: path() + ".viewport")
    }
    if !(group.scrollMargin.isFinite && group.scrollMargin >= 0) {
      throw LayoutError(
        path: path() + ".scrollMargin",
        reason: "must be finite and not negative, got \(group.scrollMargin)")
    }
    if let label = group.accessibilityLabel {
      try Layout.checkGroupText(label, path: path() + ".accessibilityLabel", group: group.id)
    }
    if let preferred = group.preferredFocus, !Self.contains(group, preferred),
      !(namesVirtualItem(preferred) && VirtualItems.parse(preferred)?.group == group.id[...])
    {
      throw LayoutError(
        path: path() + ".preferredFocus",
        reason: "\"\(preferred)\" is not an item or group inside group \"\(group.id)\"")
    }
  }

  /// Whether `id` names an item or group inside `group` (at any depth, the group excluded).
  private static func contains(_ group: Group, _ id: String) -> Bool {
    group.items.contains(id)
      || group.groups.contains { $0.id == id || contains($0, id) }
  }
}
