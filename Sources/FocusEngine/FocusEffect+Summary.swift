extension FocusEffect {
  /// A short sentence for people: "focus r0c0 → r0c1 (right)", "bump right: no item that way".
  public var summary: String {
    switch self {
    case .focusChanged(let context):
      "focus \(context.previous ?? "none") → \(context.next ?? "none") (\(context.heading.rawValue))"
    case .movementFailed(let heading): "bump \(heading.rawValue): no item that way"
    case .highlighted(let id): "highlighted \(id)"
    case .activated(let id): "activated \(id)"
    case .selectionChanged(let id, let selected): "\(id) \(selected ? "selected" : "deselected")"
    case .scrolled(let group, let offset): "scrolled \(group) to \(offset.x), \(offset.y)"
    case .focusRequestDenied(let error): "focus request denied: \(error.message)"
    case .layoutRejected(let error): "layout rejected: \(error.description)"
    case .textChanged(let id, let value): "\(id) text \"\(value)\""
    case .textRejected(let reason): "text rejected: \(reason)"
    case .back: "back"
    case .home: "home"
    case .playPause(let id): id.map { "play/pause \($0)" } ?? "play/pause"
    case .contextMenu(let id): "context menu \(id)"
    case .doubleTap(let button): "double tap \(button.name)"
    case .itemsInView(let group, let range):
      "items in view \(group)#\(range.lowerBound)..<\(range.upperBound)"
    }
  }
}
