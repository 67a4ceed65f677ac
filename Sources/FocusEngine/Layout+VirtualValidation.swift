extension Layout {
  /// A virtual group's declaration: the group lists no items and nests no groups; the count
  /// is 0 to ``VirtualItems/maximumCount``; the item size is finite and positive, spacing and
  /// origin finite (spacing not negative); a grid has 1 to ``VirtualItems/maximumColumns``
  /// columns; size runs as ``checkSizes(_:_:path:)`` says; the title prefix is free text.
  static func checkVirtual(_ virtual: VirtualItems, _ group: Group, path: @autoclosure () -> String)
    throws(LayoutError)
  {
    if !group.items.isEmpty || !group.groups.isEmpty {
      throw LayoutError(
        path: path(), reason: "a virtual group lists no items and holds no nested groups")
    }
    if !(0...VirtualItems.maximumCount).contains(virtual.count) {
      throw LayoutError(
        path: path() + ".count",
        reason: "must be between 0 and \(VirtualItems.maximumCount), got \(virtual.count)")
    }
    let size = virtual.itemSize
    for (name, value) in [("width", size.width), ("height", size.height)]
    where !(value.isFinite && value > 0) {
      throw LayoutError(
        path: "\(path()).itemSize.\(name)", reason: "must be finite and above 0, got \(value)")
    }
    let spacing = virtual.spacing
    for (name, value) in [("width", spacing.width), ("height", spacing.height)]
    where !(value.isFinite && value >= 0) {
      throw LayoutError(
        path: "\(path()).spacing.\(name)", reason: "must be finite and not negative, got \(value)")
    }
    if !(virtual.origin.x.isFinite && virtual.origin.y.isFinite) {
      throw LayoutError(path: path() + ".origin", reason: "must be finite")
    }
    if case .grid(let columns) = virtual.arrangement,
      !(1...VirtualItems.maximumColumns).contains(columns)
    {
      throw LayoutError(
        path: path() + ".columns",
        reason: "must be between 1 and \(VirtualItems.maximumColumns), got \(columns)")
    }
    if let sizes = virtual.sizes { try checkSizes(sizes, virtual, path: path() + ".sizes") }
    try checkGroupText(virtual.titlePrefix, path: path() + ".titlePrefix", group: group.id)
    try checkVirtualContent(
      virtual.content, count: virtual.count, group: group.id, path: path() + ".content")
  }

  /// Size runs: a row's or a column's only (not a grid's); 1 to
  /// ``VirtualItems/maximumSizeRuns`` runs, each of 1 or more items of a finite length above
  /// 0, together exactly the group's count, their total length finite. O(runs).
  static func checkSizes(
    _ sizes: SizeRuns, _ virtual: VirtualItems, path: @autoclosure () -> String
  ) throws(LayoutError) {
    if case .grid = virtual.arrangement {
      throw LayoutError(
        path: path(), reason: "only a row or a column may size its items by runs, not a grid")
    }
    let runs = sizes.runs
    if runs.isEmpty || runs.count > VirtualItems.maximumSizeRuns {
      throw LayoutError(
        path: path(),
        reason: "must hold 1 to \(VirtualItems.maximumSizeRuns) runs, got \(runs.count)")
    }
    for (position, run) in runs.enumerated() {
      if run.count < 1 {
        throw LayoutError(
          path: "\(path())[\(position)].count", reason: "must be 1 or more, got \(run.count)")
      }
      if !(run.length.isFinite && run.length > 0) {
        throw LayoutError(
          path: "\(path())[\(position)].length",
          reason: "must be finite and above 0, got \(run.length)")
      }
    }
    if sizes.total != virtual.count {
      throw LayoutError(
        path: path(),
        reason: "the runs cover \(sizes.total) items, the group declares \(virtual.count)")
    }
    let gap = virtual.arrangement == .column ? virtual.spacing.height : virtual.spacing.width
    if !(sizes.lengthBefore[runs.count] + Double(virtual.count) * gap).isFinite {
      throw LayoutError(path: path(), reason: "the items' total length must be finite")
    }
  }

  /// Supplied virtual content: at most ``VirtualItems/maximumContent`` items, each index below
  /// `count`, its title and content checked like a listed item's, its key an id that no other
  /// item of `content` carries. O(items · log items).
  static func checkVirtualContent(
    _ content: [Int: VirtualContent], count: Int, group: String, path: @autoclosure () -> String
  ) throws(LayoutError) {
    if content.count > VirtualItems.maximumContent {
      throw LayoutError(
        path: path(),
        reason: "\(content.count) items with content (at most \(VirtualItems.maximumContent))")
    }
    var keys: [String: Int] = [:]
    for (index, supplied) in content.sorted(by: { $0.key < $1.key }) {
      let id = VirtualItems.id(group: group, index: index)
      func at() -> String { "\(path())[\(index)]" }
      guard (0..<count).contains(index) else {
        throw LayoutError(path: at(), reason: "index \(index) is outside the \(count) items")
      }
      if let title = supplied.title { try checkText(title, path: at() + ".title", item: id) }
      try checkContent(
        Item(id: id, frame: Rect(x: 0, y: 0, width: 1, height: 1), content: supplied.content),
        path: at())
      guard let key = supplied.key else { continue }
      if let problem = TextRules.idProblem(key) {
        throw LayoutError(path: at() + ".key", reason: "key \(problem)")
      }
      if let other = keys.updateValue(index, forKey: key) {
        throw LayoutError(
          path: at() + ".key", reason: "key \"\(key)\" is also item \(other)'s")
      }
    }
  }
}
