// The pointer rules (docs/layout-format.md "Pointer"): hit regions through the spatial index,
// hysteresis and magnetism, flicks projected with the release velocity, reveal on hover, and
// the hand-over between the pointer and directional input.

extension FocusState {
  /// A pointer sample: the pointer shows, moves, targets the item under it (which takes focus
  /// with the `pointer` heading), presses and activates it, flicks, or scrolls.
  mutating func handlePointer(_ sample: PointerSample, cause: FocusCause?) -> [FocusEffect] {
    guard sample.position.x.isFinite, sample.position.y.isFinite, sample.velocity.x.isFinite,
      sample.velocity.y.isFinite, sample.scroll.x.isFinite, sample.scroll.y.isFinite
    else { return [] }
    lastInputWasDirectional = false
    lastInputWasPointer = true
    pointer.visible = true
    pointer.lastActivity = sample.at
    pointer.velocity = sample.velocity
    var effects: [FocusEffect] = []
    switch sample.phase {
    case .moved, .down:
      pointer.position = sample.position
      effects += updateReveal(cause: cause)
      effects += retarget(cause: cause)
      if sample.phase == .down, sample.buttons & PointerEvent.primaryButton != 0,
        let target = pointer.target, target == focused, pressed == nil
      {
        pressed = target
        pointer.pressing = true
        effects.append(.highlighted(target))
      }
    case .up:
      pointer.position = sample.position
      if pointer.pressing {
        pointer.pressing = false
        effects += reduce(&self, .selectUp, cause: cause)
      } else {
        effects += flick(cause: cause)
      }
    case .cancelled:
      if pointer.pressing {
        pointer.pressing = false
        pressed = nil
      }
    case .scroll:
      effects += scrollUnderPointer(by: sample.scroll)
    }
    return effects
  }

  /// Hides the pointer if it has not moved for the layout's idle timeout by `now` (the
  /// remote's clock); the `revealOnPointer` groups close with it.
  mutating func pointerIdle(at now: UInt64, cause: FocusCause?) -> [FocusEffect] {
    guard pointer.visible, now >= pointer.lastActivity,
      now - pointer.lastActivity >= idleTimeoutNanoseconds
    else { return [] }
    pointer.visible = false
    pointer.target = nil
    return updateReveal(cause: cause)
  }

  /// The idle timeout in nanoseconds.
  var idleTimeoutNanoseconds: UInt64 {
    UInt64(layout.pointerIdleTimeout * 1e9)
  }

  /// A directional input hides the pointer; focus continues from the focused item.
  mutating func hidePointerForDirectionalInput() {
    pointer.visible = false
    pointer.target = nil
    if pointer.pressing {
      pointer.pressing = false
      pressed = nil
    }
  }

  /// Where a directional input starts when the pointer left focus hidden (its item vanished):
  /// the focusable item nearest the pointer.
  func itemNearPointer() -> Int? {
    guard focused == nil, lastInputWasPointer else { return nil }
    let spot = Rect(x: pointer.position.x, y: pointer.position.y, width: 0, height: 0)
    return nearest(to: spot, scope: -1)
  }

  // MARK: - Targeting

  /// Targets the item whose hit region holds the pointer and focuses it.
  private mutating func retarget(cause: FocusCause?) -> [FocusEffect] {
    let hit = hitTest(pointer.position, keeping: pointer.target)
    pointer.target = hit.map { itemID(at: $0) }
    guard let hit, itemID(at: hit) != focused else { return [] }
    pressed = nil
    pointer.pressing = false
    return changeFocus(to: hit, heading: .pointer, cause: cause)
  }

  /// The focusable item (inside the trapping group, if any) whose hit region holds `point`:
  /// the frame grown by `pointerHitMargin` for items with magnetism, the frame itself for
  /// others, and only where every scrolling group around it shows it. The current target
  /// wins while the point stays in its region (hysteresis); otherwise the nearest frame,
  /// then the smaller one, then reading order.
  ///
  /// - Complexity: the spatial-index cells under the hit region: O(1) for a grid-like layout.
  public func hitTest(_ point: Point, keeping current: String? = nil) -> Int? {
    let margin = layout.pointerHitMargin
    let scope = trapScope
    var best: (distance: Double, area: Double, rank: Int, position: Int)?
    var keep: Int?
    forEachGrid { grid, offset in
      let area = Rect(
        x: point.x + offset.x - margin, y: point.y + offset.y - margin, width: 2 * margin,
        height: 2 * margin)
      grid.forEach(in: area) { members in
        for member in members {
          let position = Int(member)
          guard index.isFocusable(position), index.contains(group: scope, item: position) else {
            continue
          }
          let item = itemValue(at: position)
          let frame = presentedFrame(at: position)
          let distance = Self.distance(from: point, to: frame)
          guard distance <= (item.pointerMagnetism ? margin : 0), isShown(point, position)
          else { continue }
          if item.id == current { keep = position }
          let candidate = (distance, frame.width * frame.height, index.rankOf(position), position)
          if let now = best,
            (now.distance, now.area, now.rank) <= (distance, candidate.1, candidate.2)
          {
            continue
          }
          best = candidate
        }
      }
    }
    let currentPosition = current.flatMap { index.position(of: $0) }
    virtualHit(point, scope: scope) { position, frame, distance in
      guard isShown(point, position) else { return }
      if position == currentPosition { keep = position }
      let rank = index.rankOf(position)
      if let now = best,
        (now.distance, now.area, now.rank) <= (distance, frame.width * frame.height, rank)
      {
        return
      }
      best = (distance, frame.width * frame.height, rank, position)
    }
    return keep ?? best?.position
  }

  /// Whether every scrolling group around the item shows `point` in its viewport.
  private func isShown(_ point: Point, _ position: Int) -> Bool {
    let group = index.groupOf(position)
    guard group >= 0 else { return true }
    for ancestor in index.ancestors(of: group) {
      let node = index.groupValues[ancestor]
      guard node.scroll != nil, let viewport = node.viewport else { continue }
      let parent = index.nodes[ancestor].parent
      let offset = parent >= 0 ? shift[parent] : .zero
      let shown = viewport.offsetBy(dx: -offset.x, dy: -offset.y)
      if Self.distance(from: point, to: shown) > 0 { return false }
    }
    return true
  }

  /// The distance from a point to a rectangle (0 inside or on its edge).
  static func distance(from point: Point, to frame: Rect) -> Double {
    let dx = max(0, max(frame.minX - point.x, point.x - frame.maxX))
    let dy = max(0, max(frame.minY - point.y, point.y - frame.maxY))
    return (dx * dx + dy * dy).squareRoot()
  }

  // MARK: - Flick

  /// A release: when it is fast enough, the pointer's path is projected with the release
  /// velocity (``PointerRules/projection(of:)``) and clamped to the canvas; of the items whose
  /// hit regions the path crosses, the one whose frame lies nearest the projected end point is
  /// the target (then reading order). The pointer lands on its centre and it takes focus.
  /// With no item on the path the pointer ends at the projected point.
  private mutating func flick(cause: FocusCause?) -> [FocusEffect] {
    let velocity = pointer.velocity
    let speed = (velocity.x * velocity.x + velocity.y * velocity.y).squareRoot()
    guard speed >= PointerRules.flickMinimumSpeed else { return [] }
    let start = pointer.position
    let travel = PointerRules.projection(of: velocity)
    let end = Point(
      x: min(max(start.x + travel.x, 0), layout.canvas.width),
      y: min(max(start.y + travel.y, 0), layout.canvas.height))
    let margin = layout.pointerHitMargin
    let scope = trapScope
    var best: (distance: Double, rank: Int, position: Int)?
    forEachGrid { grid, offset in
      let area = Rect(
        x: min(start.x, end.x) + offset.x - margin, y: min(start.y, end.y) + offset.y - margin,
        width: abs(end.x - start.x) + 2 * margin, height: abs(end.y - start.y) + 2 * margin)
      grid.forEach(in: area) { members in
        for member in members {
          let position = Int(member)
          guard index.isFocusable(position), index.contains(group: scope, item: position) else {
            continue
          }
          let item = itemValue(at: position)
          let frame = presentedFrame(at: position)
          let reach = item.pointerMagnetism ? margin : 0
          let region = Rect(
            x: frame.minX - reach, y: frame.minY - reach, width: frame.width + 2 * reach,
            height: frame.height + 2 * reach)
          guard Self.segment(from: start, to: end, crosses: region) else { continue }
          let distance = Self.distance(from: end, to: frame)
          let rank = index.rankOf(position)
          if let now = best, (now.distance, now.rank) <= (distance, rank) { continue }
          best = (distance, rank, position)
        }
      }
    }
    virtualFlick(from: start, to: end, scope: scope) { position, distance in
      let rank = index.rankOf(position)
      if let now = best, (now.distance, now.rank) <= (distance, rank) { return }
      best = (distance, rank, position)
    }
    guard let best else {
      pointer.position = end
      pointer.target = nil
      return []
    }
    let frame = presentedFrame(at: best.position)
    pointer.position = Point(x: frame.midX, y: frame.midY)
    pointer.velocity = .zero
    pointer.target = itemID(at: best.position)
    guard pointer.target != focused else { return [] }
    pressed = nil
    return changeFocus(to: best.position, heading: .pointer, cause: cause)
  }

  /// Whether the segment from `start` to `end` meets `rect`.
  static func segment(from start: Point, to end: Point, crosses rect: Rect) -> Bool {
    lastPoint(from: start, to: end, inside: rect) != nil
  }

  // MARK: - Reveal and scroll

  /// Opens the `revealOnPointer` groups the visible pointer is over and closes the others;
  /// if focus was in a group that closed, it is hidden (the pointer's disappear rule).
  private mutating func updateReveal(cause: FocusCause?) -> [FocusEffect] {
    guard index.usesReveal else { return [] }
    var now: Set<String> = []
    if pointer.visible {
      for group in index.nodes.indices where index.groupValues[group].revealOnPointer {
        guard let region = revealRegion(of: group) else { continue }
        if Self.distance(from: pointer.position, to: region) <= layout.pointerHitMargin {
          now.insert(index.nodes[group].id)
        }
      }
    }
    guard now != revealed else { return [] }
    revealed = now
    applyReveal()
    if let target = pointer.target, !isFocusable(target) { pointer.target = nil }
    guard let focused, !isFocusable(focused) else { return [] }
    pressed = nil
    pointer.pressing = false
    return changeFocus(to: nil, heading: .recovery, cause: cause)
  }

  /// A `revealOnPointer` group's region as shown: its viewport, else its items' bounds.
  func revealRegion(of group: Int) -> Rect? {
    let parent = index.nodes[group].parent
    let outer = parent >= 0 ? shift[parent] : .zero
    if let viewport = index.groupValues[group].viewport {
      return viewport.offsetBy(dx: -outer.x, dy: -outer.y)
    }
    let own = shift[group]
    return index.subtreeBounds[group].map { $0.offsetBy(dx: -own.x, dy: -own.y) }
  }

  /// Scrolls the innermost scrolling group whose viewport holds the pointer.
  private mutating func scrollUnderPointer(by delta: Point) -> [FocusEffect] {
    var chosen: Int?
    for group in index.nodes.indices {
      let node = index.groupValues[group]
      guard node.scroll != nil, let viewport = node.viewport else { continue }
      let parent = index.nodes[group].parent
      let offset = parent >= 0 ? shift[parent] : .zero
      let shown = viewport.offsetBy(dx: -offset.x, dy: -offset.y)
      // Pre-order: a later match inside an earlier one is deeper.
      if Self.distance(from: pointer.position, to: shown) == 0 { chosen = group }
    }
    guard let chosen, scroll(group: chosen, by: delta) else { return [] }
    let id = index.nodes[chosen].id
    return [.scrolled(group: id, offset: scrollOffsets[id] ?? .zero)]
  }

  // MARK: - Presentation

  /// The effect an item shows when the pointer targets it, `automatic` resolved: `none` for a
  /// text field, `lift` for a poster (parallax layers, or both sides at least
  /// ``PointerRules/posterSide``), else `highlight`.
  public func pointerEffect(of id: String) -> PointerEffectStyle? {
    item(id).map(Self.resolvedPointerEffect)
  }

  static func resolvedPointerEffect(_ item: Item) -> PointerEffectStyle {
    guard item.pointerEffect == .automatic else { return item.pointerEffect }
    if item.kind == .textField { return .none }
    let poster =
      !item.layers.isEmpty
      || min(item.frame.width, item.frame.height) >= PointerRules.posterSide
    return poster ? .lift : .highlight
  }

  /// What renderers draw for the pointer: its magnetised position, shape, effect and target.
  ///
  /// Shape: the item's `pointerShape` if it names one; else the I-beam over a text field; the
  /// item's shape under `highlight`; else a circle. Position: under `highlight` the item's
  /// centre moved by ``PointerRules/highlightParallax`` of the offset; over another item with
  /// magnetism, ``PointerRules/magnetism`` of the way to its centre; else the tracked point.
  public var pointerPresentation: PointerPresentation {
    let raw = pointer.position
    guard let target = pointer.target, let item = item(target),
      let frame = presentedFrame(of: target)
    else {
      return PointerPresentation(
        position: raw, visible: pointer.visible, shape: PointerShape.circle, effect: .none,
        target: nil)
    }
    let effect = Self.resolvedPointerEffect(item)
    let shape: String
    if let custom = item.pointerShape {
      shape = custom
    } else if item.kind == .textField {
      shape = PointerShape.iBeam
    } else if effect == .highlight {
      shape = PointerShape.item
    } else {
      shape = PointerShape.circle
    }
    let centre = Point(x: frame.midX, y: frame.midY)
    var position = raw
    if item.pointerMagnetism {
      let pull = effect == .highlight ? 1 - PointerRules.highlightParallax : PointerRules.magnetism
      position = Point(
        x: raw.x + (centre.x - raw.x) * pull, y: raw.y + (centre.y - raw.y) * pull)
    }
    return PointerPresentation(
      position: position, visible: pointer.visible, shape: shape, effect: effect, target: target)
  }
}

extension Layout {
  /// Every item's pointer effect with `automatic` resolved (for renderers, which hold a layout
  /// but no ``FocusState``).
  public func pointerEffects() -> [String: PointerEffectStyle] {
    var effects: [String: PointerEffectStyle] = [:]
    effects.reserveCapacity(items.count)
    for item in items { effects[item.id] = FocusState.resolvedPointerEffect(item) }
    return effects
  }
}

extension VirtualItems {
  /// The pointer effect of every item of the group, `automatic` resolved as for a listed
  /// button of the same size (for renderers).
  public var pointerEffect: PointerEffectStyle {
    FocusState.resolvedPointerEffect(item(group: "", index: 0))
  }
}
