/// How the focused item is drawn in 3D: tilt, scale, layer shifts, shadow and the specular
/// highlight, as tvOS draws a focused poster (HIG "Focus and selection", layered images).
///
/// Derived, never stored: ``Parallax/of(_:_:)`` computes it from the focus state and the
/// remote's tilt and bump. At rest (no finger) the tilt is 0: renderers ease towards each new
/// value, which gives the spring back after a bump and the settle after lift-off.
public struct Parallax: Sendable, Equatable {
  /// A drop shadow.
  public struct Shadow: Sendable, Equatable {
    /// Blur radius, points.
    public var radius: Double
    /// Downward offset, points.
    public var offsetY: Double
    /// 0 (none) to 1.
    public var opacity: Double

    /// Creates a shadow.
    public init(radius: Double, offsetY: Double, opacity: Double) {
      self.radius = radius
      self.offsetY = offsetY
      self.opacity = opacity
    }
  }

  /// The focused item.
  public var item: String
  /// Rotation about the horizontal axis, degrees (positive: the top edge tips away).
  public var rotateX: Double
  /// Rotation about the vertical axis, degrees (positive: the right edge tips away).
  public var rotateY: Double
  /// Scale against the item's frame.
  public var scale: Double
  /// Per layer (the item's `layers`, back to front): its shift in points.
  public var translate: [Point]
  /// The shadow under the item.
  public var shadow: Shadow
  /// Where the specular highlight sits on the item, each axis 0…1 (0.5, 0.5 at rest).
  public var specular: Point

  /// Creates a parallax value.
  public init(
    item: String, rotateX: Double, rotateY: Double, scale: Double, translate: [Point],
    shadow: Shadow, specular: Point
  ) {
    self.item = item
    self.rotateX = rotateX
    self.rotateY = rotateY
    self.scale = scale
    self.translate = translate
    self.shadow = shadow
    self.specular = specular
  }

  /// The greatest tilt, degrees.
  public static let maxRotation = 5.0
  /// The tilt a failed move shows, as a fraction of the greatest.
  public static let bumpTilt = 0.6
  /// Scale of a focused item, and of a highlighted one (the brief press).
  public static let focusedScale = 1.1
  /// Scale while the select button is held down.
  public static let pressedScale = 0.95
  /// Layer shift at depth 0 (the back) and at depth 1 (the front), points.
  public static let layerShift = (back: 2.0, front: 8.0)

  /// The shadow of an item in a display state: focused lifted furthest, unavailable none.
  public static func shadow(for state: FocusDisplayState) -> Shadow {
    switch state {
    case .focused: Shadow(radius: 30, offsetY: 22, opacity: 0.55)
    case .highlighted: Shadow(radius: 12, offsetY: 6, opacity: 0.4)
    case .selected, .unfocused: Shadow(radius: 4, offsetY: 2, opacity: 0.25)
    case .unavailable: Shadow(radius: 0, offsetY: 0, opacity: 0)
    }
  }

  /// The scale of an item in a display state.
  public static func scale(for state: FocusDisplayState) -> Double {
    switch state {
    case .focused: focusedScale
    case .highlighted: pressedScale
    case .selected, .unfocused, .unavailable: 1
    }
  }

  /// The parallax of the focused item, or nil when nothing is focused.
  ///
  /// The tilt follows the finger (up to ``maxRotation``), leans towards the neighbour as the
  /// finger nears a step, and after a failed move leans ``bumpTilt`` into the edge it hit.
  public static func of(_ focus: FocusState, _ remote: RemoteInterpreter) -> Parallax? {
    of(focus, tilt: remote.tilt, bump: remote.bump)
  }

  /// The parallax of the focused item for a remote whose finger tilts it by `tilt` and whose
  /// last failed move was towards `bump` (``RemoteInterpreter/tilt``, ``RemoteInterpreter/bump``):
  /// what ``of(_:_:)`` gives for that remote. Reads the focused item where it lies (its position
  /// is kept with the focus), without looking its id up or copying it.
  public static func of(_ focus: FocusState, tilt: Point, bump: Direction?) -> Parallax? {
    guard let id = focus.focused, let position = focus.focusedPosition else { return nil }
    return of(id, at: position, in: focus, state: focus.displayState(at: position), tilt, bump)
  }

  /// The parallax the item focused at `prior` had, read on `tables`, the state whose layout
  /// tables it had then (see ``FocusState/Prior``): what ``of(_:tilt:bump:)`` gave for the
  /// state at `prior`.
  public static func of(
    _ prior: FocusState.Prior, in tables: FocusState, tilt: Point, bump: Direction?
  ) -> Parallax? {
    guard let id = prior.focused, let position = prior.focusedAt,
      let state = tables.focusedDisplayState(at: prior)
    else { return nil }
    return of(id, at: position, in: tables, state: state, tilt, bump)
  }

  /// The parallax of item `id`, at `position` in `focus`'s tables, shown `state`.
  private static func of(
    _ id: String, at position: Int, in focus: FocusState, state: FocusDisplayState,
    _ tilt: Point, _ bump: Direction?
  ) -> Parallax {
    var tilt = tilt
    if let bump {
      switch bump {
      case .left: tilt.x = -bumpTilt
      case .right: tilt.x = bumpTilt
      case .up: tilt.y = -bumpTilt
      case .down: tilt.y = bumpTilt
      }
    }
    let translate = focus.layers(at: position).map { layer in
      let amount = layerShift.back + (layerShift.front - layerShift.back) * layer.depth
      return Point(x: tilt.x * amount, y: tilt.y * amount)
    }
    return Parallax(
      item: id,
      rotateX: -tilt.y * maxRotation,
      rotateY: tilt.x * maxRotation,
      scale: scale(for: state),
      translate: translate,
      shadow: shadow(for: state),
      specular: Point(x: 0.5 - tilt.x * 0.4, y: 0.5 - tilt.y * 0.4))
  }
}
