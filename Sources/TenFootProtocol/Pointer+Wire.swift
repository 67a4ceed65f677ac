import FocusEngine

extension PointerEffectStyle {
  /// The engine effect of a wire effect: unspecified and unknown values are `automatic`.
  public init(wire: Tenfoot_V1_PointerEffectStyle) {
    switch wire {
    case .highlight: self = .highlight
    case .lift: self = .lift
    case .hover: self = .hover
    case .none: self = .none
    case .unspecified, .UNRECOGNIZED: self = .automatic
    }
  }
}

extension Tenfoot_V1_PointerEffectStyle {
  /// The wire form of an engine pointer effect.
  public init(_ effect: PointerEffectStyle) {
    switch effect {
    case .automatic: self = .unspecified
    case .highlight: self = .highlight
    case .lift: self = .lift
    case .hover: self = .hover
    case .none: self = .none
    }
  }
}

extension PointerPhase {
  /// The engine phase of a wire phase; nil if unspecified or unknown.
  public init?(wire: Tenfoot_V1_PointerPhase) {
    switch wire {
    case .moved: self = .moved
    case .down: self = .down
    case .up: self = .up
    case .cancelled: self = .cancelled
    case .scroll: self = .scroll
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }
}

extension Tenfoot_V1_PointerPhase {
  /// The wire form of an engine phase.
  public init(_ phase: PointerPhase) {
    switch phase {
    case .moved: self = .moved
    case .down: self = .down
    case .up: self = .up
    case .cancelled: self = .cancelled
    case .scroll: self = .scroll
    }
  }
}

extension Tenfoot_V1_PointerEvent {
  /// The wire form of a pointer sample.
  public init(_ event: PointerEvent) {
    self.init()
    phase = Tenfoot_V1_PointerPhase(event.phase)
    x = event.x
    y = event.y
    relative = event.relative
    buttons = event.buttons
    timestampNs = event.at
  }
}

extension Tenfoot_V1_PointerState {
  /// The wire form of what screens draw for the pointer.
  public init(_ presentation: PointerPresentation) {
    self.init()
    x = presentation.position.x
    y = presentation.position.y
    visible = presentation.visible
    shape = presentation.shape
    effect = Tenfoot_V1_PointerEffectStyle(presentation.effect)
    if presentation.effect == .automatic { effect = .none }
    target = presentation.target ?? ""
  }
}

extension PointerPresentation {
  /// The pointer a wire pointer state describes.
  public init(wire: Tenfoot_V1_PointerState) {
    let effect = PointerEffectStyle(wire: wire.effect)
    self.init(
      position: Point(x: wire.x, y: wire.y), visible: wire.visible,
      shape: wire.shape.isEmpty ? PointerShape.circle : wire.shape,
      effect: effect == .automatic ? .none : effect,
      target: wire.target.isEmpty ? nil : wire.target)
  }
}
