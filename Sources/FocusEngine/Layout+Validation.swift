extension Layout {
  /// The longest id a layout accepts, in characters.
  public static let maximumIDLength = 128

  /// Checks that the layout is well formed, throwing the first problem in document order.
  ///
  /// The rules: the canvas is finite and positive; item ids are non-empty, at most
  /// ``maximumIDLength`` characters of `A-Z a-z 0-9 . _ : -`, and unique among items; frames
  /// are finite with non-negative width and height; group ids follow the same character rules
  /// and are unique among groups (a group may share an id with an item); every item a group
  /// names exists and sits in at most one group; `initialFocus`, if set, names an item.
  /// Errors carry JSON-style paths: `canvas.width`, `items[3].frame`,
  /// `groups[1].groups[0].items[2]`, `initialFocus`.
  ///
  /// - Complexity: O(n) in the number of items and group entries.
  public func validate() throws(LayoutError) {
    try Self.checkCanvas(canvas)
    var itemPaths: [String: String] = [:]
    itemPaths.reserveCapacity(items.count)
    for (index, item) in items.enumerated() {
      let path = "items[\(index)]"
      try Self.checkID(item.id, path: path + ".id")
      if let first = itemPaths[item.id] {
        throw LayoutError(
          path: path + ".id", reason: "duplicate id \"\(item.id)\" (first used by \(first))")
      }
      itemPaths[item.id] = path
      try Self.checkFrame(item.frame, path: path + ".frame")
    }
    var walk = GroupWalk(itemPaths: itemPaths)
    for (index, group) in groups.enumerated() {
      try walk.check(group, path: "groups[\(index)]")
    }
    if let initialFocus, itemPaths[initialFocus] == nil {
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

  private static func checkFrame(_ frame: Rect, path: String) throws(LayoutError) {
    let parts = [
      ("x", frame.x), ("y", frame.y), ("width", frame.width), ("height", frame.height),
    ]
    for (name, value) in parts where !value.isFinite {
      throw LayoutError(path: path, reason: "\(name) must be finite, got \(value)")
    }
    for (name, value) in parts.dropFirst(2) where value < 0 {
      throw LayoutError(path: path, reason: "\(name) must not be negative, got \(value)")
    }
  }

  /// Checks an item or group id: non-empty, short, and made of `[A-Za-z0-9._:-]`.
  static func checkID(_ id: String, path: String) throws(LayoutError) {
    if id.isEmpty {
      throw LayoutError(path: path, reason: "id is empty")
    }
    for scalar in id.unicodeScalars where !isIDScalar(scalar) {
      throw LayoutError(
        path: path,
        reason: "id contains \"\(scalar.escaped(asASCII: true))\" (allowed: A-Z a-z 0-9 . _ : -)")
    }
    // Only ASCII remains here, so the scalar count is the character count.
    let length = id.unicodeScalars.count
    if length > maximumIDLength {
      throw LayoutError(
        path: path, reason: "id is \(length) characters long (at most \(maximumIDLength))")
    }
  }

  private static func isIDScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "A"..."Z", "a"..."z", "0"..."9", ".", "_", ":", "-": true
    default: false
    }
  }
}

/// The depth-first walk over the group tree that `validate()` performs.
private struct GroupWalk {
  /// Item id → its path, for known-item checks.
  let itemPaths: [String: String]
  /// Group id → its path, for uniqueness.
  var groupPaths: [String: String] = [:]
  /// Item id → the id of the group that claimed it.
  var owners: [String: String] = [:]

  mutating func check(_ group: Group, path: String) throws(LayoutError) {
    try Layout.checkID(group.id, path: path + ".id")
    if let first = groupPaths[group.id] {
      throw LayoutError(
        path: path + ".id", reason: "duplicate group id \"\(group.id)\" (first used by \(first))")
    }
    groupPaths[group.id] = path
    for (index, member) in group.items.enumerated() {
      let memberPath = "\(path).items[\(index)]"
      guard itemPaths[member] != nil else {
        throw LayoutError(path: memberPath, reason: "unknown item \"\(member)\"")
      }
      if let owner = owners[member] {
        throw LayoutError(
          path: memberPath, reason: "item \"\(member)\" is already in group \"\(owner)\"")
      }
      owners[member] = group.id
    }
    for (index, child) in group.groups.enumerated() {
      try check(child, path: "\(path).groups[\(index)]")
    }
  }
}
