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
    case .pointer: self = .pointer
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
    case .pointer: "pointer"
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
      if let cause = context.cause {
        update.cause.sender = cause.sender
        update.cause.seq = cause.sequence
      }
      kind = .focusChanged(update)
    case .movementFailed(let heading):
      kind = .movementFailed(Tenfoot_V1_Heading(heading))
    case .highlighted(let id):
      kind = .highlighted(id)
    case .activated(let id):
      kind = .activated(id)
    case .selectionChanged(let id, let selected):
      var change = Tenfoot_V1_SelectionChange()
      change.id = id
      change.selected = selected
      kind = .selectionChanged(change)
    case .scrolled(let group, let offset):
      kind = .scrolled(Tenfoot_V1_ScrollOffset(group: group, offset: offset))
    case .focusRequestDenied(let error):
      kind = .focusRequestDenied(Tenfoot_V1_FocusDenial(error))
    case .layoutRejected(let error):
      kind = .layoutRejected(error.description)
    case .textChanged(let id, let value):
      kind = .textChanged(
        .with {
          $0.id = id
          $0.value = value
        })
    case .textRejected(let reason):
      kind = .layoutRejected(reason)  // Never published: the broker answers NO_TEXT_FIELD.
    case .back: kind = .back(true)
    case .home: kind = .home(true)
    case .playPause(let id): kind = .playPause(id ?? "")
    case .contextMenu(let id): kind = .contextMenu(id)
    case .doubleTap(let button): kind = .doubleTap(Tenfoot_V1_Key(button))
    case .itemsInView(let group, let range):
      kind = .itemsInView(Tenfoot_V1_ItemsInView(group: group, range: range))
    }
  }

  /// A short sentence for people (the engine effect's ``FocusEffect/summary``): "focus r0c0 →
  /// r0c1 (right)", "bump right: no item that way", …; "nothing" for an effect this side does
  /// not know.
  public var summary: String {
    if case .layoutRejected(let reason) = kind { return "layout rejected: \(reason)" }
    return FocusEffect(wire: self)?.summary ?? "nothing"
  }
}

extension Tenfoot_V1_ScrollOffset {
  /// The wire form of a group's scroll offset.
  public init(group: String, offset: Point) {
    self.init()
    self.group = group
    x = offset.x
    y = offset.y
  }
}

extension Tenfoot_V1_FocusDenial {
  /// The wire form of a refused focus request.
  public init(_ error: FocusRequestError) {
    self.init()
    reason =
      switch error.reason {
      case .unknown: .unknown
      case .unavailable: .unavailable
      case .outsideTrappingGroup: .outsideTrappingGroup
      case .ambiguous: .ambiguous
      }
    target = error.target
    message = error.message
  }
}

extension Tenfoot_V1_ErrorCode {
  /// The error code that answers a refused focus request.
  public init(_ reason: FocusRequestError.Reason) {
    switch reason {
    case .unknown: self = .unknownTarget
    case .unavailable: self = .focusUnavailable
    case .outsideTrappingGroup: self = .focusTrapped
    case .ambiguous: self = .focusAmbiguous
    }
  }
}

extension Tenfoot_V1_Parallax {
  /// The wire form of the focused item's parallax.
  public init(_ parallax: Parallax) {
    self.init()
    item = parallax.item
    rotateX = parallax.rotateX
    rotateY = parallax.rotateY
    scale = parallax.scale
    translate = parallax.translate.map { point in
      .with {
        $0.x = point.x
        $0.y = point.y
      }
    }
    shadow.radius = parallax.shadow.radius
    shadow.offsetY = parallax.shadow.offsetY
    shadow.opacity = parallax.shadow.opacity
    specular.x = parallax.specular.x
    specular.y = parallax.specular.y
  }
}

extension Parallax {
  /// The engine value of a wire parallax.
  public init(wire: Tenfoot_V1_Parallax) {
    self.init(
      item: wire.item, rotateX: wire.rotateX, rotateY: wire.rotateY, scale: wire.scale,
      translate: wire.translate.map { Point(x: $0.x, y: $0.y) },
      shadow: Shadow(
        radius: wire.shadow.radius, offsetY: wire.shadow.offsetY, opacity: wire.shadow.opacity),
      specular: Point(x: wire.specular.x, y: wire.specular.y))
  }
}
