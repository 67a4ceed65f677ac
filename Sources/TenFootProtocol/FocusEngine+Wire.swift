import FocusEngine

extension Tenfoot_V1_FocusDisplayState {
  /// The wire form of a display state.
  public init(_ state: FocusDisplayState) {
    switch state {
    case .unfocused: self = .unfocused
    case .focused: self = .focused
    case .highlighted: self = .highlighted
    case .selected: self = .selected
    case .unavailable: self = .unavailable
    }
  }
}

extension FocusDisplayState {
  /// The display state a wire value names, or nil for unspecified or unknown values.
  public init?(wire: Tenfoot_V1_FocusDisplayState) {
    switch wire {
    case .unfocused: self = .unfocused
    case .focused: self = .focused
    case .highlighted: self = .highlighted
    case .selected: self = .selected
    case .unavailable: self = .unavailable
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }
}

extension Tenfoot_V1_Heading {
  /// The wire form of a focus heading.
  public init(_ heading: FocusHeading) {
    switch heading {
    case .up: self = .up
    case .down: self = .down
    case .left: self = .left
    case .right: self = .right
    case .next: self = .next
    case .previous: self = .previous
    case .programmatic: self = .programmatic
    case .recovery: self = .recovery
    case .initial: self = .initial
    }
  }

  /// The wire heading of a direction.
  public init(_ direction: Direction) {
    self.init(FocusHeading(direction))
  }

  /// A lower-case name for people ("right"), "unknown" for unspecified values.
  public var name: String {
    switch self {
    case .up: "up"
    case .down: "down"
    case .left: "left"
    case .right: "right"
    case .next: "next"
    case .previous: "previous"
    case .programmatic: "programmatic"
    case .recovery: "recovery"
    case .initial: "initial"
    case .unspecified, .UNRECOGNIZED: "unknown"
    }
  }
}

extension Tenfoot_V1_FocusEffect {
  /// The wire form of an engine effect.
  public init(_ effect: FocusEffect) {
    self.init()
    switch effect {
    case .focusChanged(let context):
      var update = Tenfoot_V1_FocusUpdate()
      if let previous = context.previous { update.previous = previous }
      if let next = context.next { update.next = next }
      update.heading = Tenfoot_V1_Heading(context.heading)
      kind = .focusChanged(update)
    case .movementFailed(let direction):
      kind = .movementFailed(Tenfoot_V1_Heading(direction))
    case .highlighted(let id):
      kind = .highlighted(id)
    case .activated(let id):
      kind = .activated(id)
    case .selectionChanged(let id, let selected):
      var change = Tenfoot_V1_SelectionChange()
      change.id = id
      change.selected = selected
      kind = .selectionChanged(change)
    }
  }

  /// A short sentence for people: "focus r0c0 → r0c1 (right)", "bump right", …
  public var summary: String {
    switch kind {
    case .focusChanged(let update):
      let previous = update.hasPrevious ? update.previous : "none"
      let next = update.hasNext ? update.next : "none"
      return "focus \(previous) → \(next) (\(update.heading.name))"
    case .movementFailed(let heading): return "bump \(heading.name): no item that way"
    case .highlighted(let id): return "highlighted \(id)"
    case .activated(let id): return "activated \(id)"
    case .selectionChanged(let change):
      return "\(change.id) \(change.selected ? "selected" : "deselected")"
    case nil: return "nothing"
    }
  }
}
