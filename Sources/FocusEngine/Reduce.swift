/// Applies one event to a focus state and returns what happened, in order.
///
/// Pure and deterministic: no I/O, no clock. An event that changes nothing returns no effects,
/// except a move or Tab with no destination (``FocusEffect/movementFailed(_:)``, the edge
/// bump), a refused focus request and a rejected layout, which say so and leave the state as
/// it was.
///
/// - `move`: focus goes to the directional search's winner (see ``FocusSearch``), through
///   focus guides and group memory, never leaving a trapping group. A successful move cancels
///   a held select press without activating (the finger slid off the button).
/// - `tab`: the primary item of the next (previous) group in the Tab loop, wrapping.
/// - `selectDown`: the focused item becomes highlighted.
/// - `selectUp`: the highlighted item is activated and, if it toggles, its selected flag flips.
/// - `requestFocus`: the target's item (a group's primary item), or a typed refusal.
/// - `replaceLayout`, `applyPatch`: see ``FocusEvent/replaceLayout(_:)``; a text field whose
///   declared `value` changes takes the new value as its text (the app's write wins).
///
/// Every focus change remembers the item in its groups, scrolls its scrolling groups to keep
/// it visible (``FocusEffect/scrolled(group:offset:)``), and selects it when a group around it
/// has `selectionFollowsFocus`.
///
/// After the step, a virtual group whose window in view moved near the edge of what its app
/// was asked for asks for more (``FocusEffect/itemsInView(group:range:)``, ``VirtualWant``).
@discardableResult
public func reduce(
  _ state: inout FocusState, _ event: FocusEvent, cause: FocusCause? = nil
) -> [FocusEffect] {
  var effects = reduceStep(&state, event, cause: cause)
  if !state.virtualWanted.isEmpty || state.hasVirtualGroups {
    effects += state.askForVirtualContent()
  }
  return effects
}

/// One step of ``reduce(_:_:cause:)`` before virtual groups ask for content: each event's
/// rule is a step of its own (`FocusState+Steps.swift`). Internal so that `VirtualStepTests`
/// can hold the request after it to the whole pass.
func reduceStep(
  _ state: inout FocusState, _ event: FocusEvent, cause: FocusCause?
) -> [FocusEffect] {
  switch event {
  case .move(let direction):
    return state.moveStep(direction, cause: cause)
  case .tab(let tab):
    return state.tabStep(tab, cause: cause)
  case .selectDown:
    return state.selectDownStep()
  case .selectUp:
    return state.selectUpStep()
  case .requestFocus(let target):
    return state.requestFocusStep(target, cause: cause)
  case .replaceLayout(let layout):
    do throws(LayoutError) {
      try layout.validate()
    } catch {
      return [.layoutRejected(error)]
    }
    return state.replaceAndRecover(layout, cause: cause)
  case .restoreMemory(let memory):
    state.restore(memory)
    return []
  case .restoreText(let text):
    state.restore(text: text)
    return []
  case .cancelSelect:
    guard state.pressed != nil else { return [] }
    state.pressed = nil
    return []
  case .text(let edit):
    return state.textStep(edit)
  case .pointer(let sample):
    return state.handlePointer(sample, cause: cause)
  case .pointerIdle(let now):
    return state.pointerIdle(at: now, cause: cause)
  case .applyPatch(let patch):
    return state.applyAttributePatch(patch, cause: cause)
      ?? state.applyPatchWhole(patch, cause: cause)
  }
}

extension FocusState {
  /// The focused item's position in the index (for a listed item, its index in
  /// `layout.items`).
  var focusedPosition: Int? { focusedAt }

  /// Moves focus to the item at `position` and reports the update, the scrolling it caused
  /// and any selection that follows focus.
  mutating func changeFocus(to position: Int?, heading: FocusHeading, cause: FocusCause?)
    -> [FocusEffect]
  {
    let previous = focused
    let next = position.map { itemID(at: $0) }
    var effects: [FocusEffect] = [
      .focusChanged(
        FocusUpdateContext(previous: previous, next: next, heading: heading, cause: cause))
    ]
    setFocused(next, at: position)
    focusAt(position, reportingScrolls: &effects)
    if let position { followSelection(position, &effects) }
    return effects
  }

  /// Reports every group whose scroll offset differs from `before`, in tree order.
  func appendScrolls(since before: [String: Point], to effects: inout [FocusEffect]) {
    guard before != scrollOffsets else { return }
    for node in index.nodes {
      if let offset = scrollOffsets[node.id], offset != (before[node.id] ?? .zero) {
        effects.append(.scrolled(group: node.id, offset: offset))
      }
    }
  }

  /// `selectionFollowsFocus`: the newly focused item becomes the one selected item of the
  /// innermost group around it that has the option.
  mutating func followSelection(_ position: Int, _ effects: inout [FocusEffect]) {
    let group = index.groupOf(position)
    guard group >= 0,
      let owner = index.ancestors(of: group).first(where: {
        index.groupValues[$0].selectionFollowsFocus
      })
    else { return }
    let id = itemID(at: position)
    for other in index.readingOrder
    where other != position && index.contains(group: owner, item: other) {
      let otherID = itemID(at: other)
      if selected.remove(otherID) != nil {
        effects.append(.selectionChanged(id: otherID, selected: false))
      }
    }
    for otherID in selected.sorted() where otherID != id {
      guard let other = index.position(of: otherID), index.isVirtual(other),
        index.contains(group: owner, item: other)
      else { continue }
      selected.remove(otherID)
      effects.append(.selectionChanged(id: otherID, selected: false))
    }
    if selected.insert(id).inserted {
      effects.append(.selectionChanged(id: id, selected: true))
    }
  }

  /// Where Tab or Shift-Tab goes: the primary item of the next stop of the Tab loop that has
  /// one, wrapping, staying inside a trapping group; nil when no other stop has one.
  func tabDestination(_ tab: TabDirection) -> Int? {
    let stops = index.tabStops
    guard !stops.isEmpty else { return nil }
    let scope = trapScope
    let current = focusedPosition.map { index.groupOf($0) }
    let step = tab == .next ? 1 : -1
    let start: Int
    if let current, let at = stops.firstIndex(of: current) {
      start = at
    } else {
      start = tab == .next ? stops.count - 1 : 0  // Nothing focused: begin at the loop's end.
    }
    for distance in 1...stops.count {
      let stop = stops[((start + step * distance) % stops.count + stops.count) % stops.count]
      if stop == current { return nil }  // Came all the way round.
      guard scope < 0 || (stop >= 0 && index.contains(group: scope, group: stop)) else {
        continue
      }
      if let entry = stopEntry(stop, scope: scope) { return entry }
    }
    return nil
  }

  /// The primary item among a Tab stop's own items (a group's direct items, or the root's
  /// ungrouped items): highest priority, else the group's `preferredFocus` when it is one of
  /// them, else the first in reading order.
  func stopEntry(_ stop: Int, scope: Int) -> Int? {
    if stop >= 0, index.nodes[stop].virtual >= 0 {
      let last = rememberedOwnAt[stop]
      guard let entry = virtualEntry(ofGroup: stop, scope: scope, last: last) else { return nil }
      if entry.priority == 0, let preferred = index.groupValues[stop].preferredFocus,
        let position = index.position(of: preferred), index.groupOf(position) == stop
      {
        return position
      }
      return entry.position
    }
    let members = stop >= 0 ? index.nodes[stop].directItems : index.rootItems
    let last = stop >= 0 ? rememberedOwnAt[stop] : nil
    var best: (priority: Int, position: Int)?
    for position in members where index.isFocusable(position) {
      guard index.contains(group: scope, item: position) else { continue }
      let priority = self.priority(of: position, last: last)
      if let current = best, current.priority >= priority { continue }  // Reading order.
      best = (priority, position)
    }
    guard let best else { return nil }
    if best.priority == 0, stop >= 0, let preferred = index.groupValues[stop].preferredFocus,
      let position = index.position(of: preferred), members.contains(position),
      index.isFocusable(position)
    {
      return position
    }
    return best.position
  }

  /// Resolves a programmatic focus request to an item, or says why it cannot be focused.
  func resolve(_ target: FocusTarget) -> Result<Int, FocusRequestError> {
    let id: String
    let asItem: Bool
    switch target {
    case .item(let name):
      id = name
      asItem = true
    case .group(let name):
      id = name
      asItem = false
    case .any(let name):
      id = name
      let isItem = index.position(of: name) != nil
      let isGroup = index.groupIndex[name] != nil
      if isItem && isGroup {
        return .failure(
          FocusRequestError(
            .ambiguous, target: name,
            message: "\"\(name)\" names both an item and a group; ask for one of them"))
      }
      asItem = !isGroup
    }
    let scope = trapScope
    let trapName = scope >= 0 ? index.nodes[scope].id : ""
    if asItem {
      guard let position = index.position(of: id) else {
        return .failure(FocusRequestError(.unknown, target: id, message: "no item \"\(id)\""))
      }
      guard index.isFocusable(position) else {
        return .failure(
          FocusRequestError(
            .unavailable, target: id, message: explainUnfocusable(position) ?? "unavailable"))
      }
      guard index.contains(group: scope, item: position) else {
        return .failure(
          FocusRequestError(
            .outsideTrappingGroup, target: id,
            message: "focus is trapped in group \"\(trapName)\", which does not contain \"\(id)\""
          ))
      }
      return .success(position)
    }
    guard let group = index.groupIndex[id] else {
      return .failure(FocusRequestError(.unknown, target: id, message: "no group \"\(id)\""))
    }
    if let position = entryItem(ofGroup: group, scope: scope) { return .success(position) }
    if scope >= 0, entryItem(ofGroup: group, scope: -1) != nil {
      return .failure(
        FocusRequestError(
          .outsideTrappingGroup, target: id,
          message: "focus is trapped in group \"\(trapName)\", which does not contain \"\(id)\""))
    }
    return .failure(
      FocusRequestError(
        .unavailable, target: id, message: "group \"\(id)\" holds no focusable item"))
  }

  /// Why the item at `position` cannot take focus, or nil if it can.
  func explainUnfocusable(_ position: Int) -> String? {
    let item = itemValue(at: position)
    if !item.available { return "item \"\(item.id)\" is unavailable" }
    if item.kind == .label { return "item \"\(item.id)\" is a label, which never takes focus" }
    if !isRevealed(position) {
      return "item \"\(item.id)\" is in a revealOnPointer group the pointer is not over"
    }
    let group = index.groupOf(position)
    if group >= 0 {
      for ancestor in index.ancestors(of: group) where !index.groupValues[ancestor].enabled {
        return "group \"\(index.nodes[ancestor].id)\" around \"\(item.id)\" is disabled"
      }
    }
    return nil
  }

  /// Applies a patch the general way: every operation on a copy of the layout, the result
  /// validated whole, the index rebuilt (``replaceAndRecover(_:cause:focusing:)``).
  mutating func applyPatchWhole(_ patch: LayoutPatch, cause: FocusCause?) -> [FocusEffect] {
    do throws(LayoutError) {
      let layout = try patch.applied(to: layout, keeping: virtualWanted.mapValues(\.region))
      return replaceAndRecover(layout, cause: cause, focusing: patch.focus)
    } catch {
      return [.layoutRejected(error)]
    }
  }

  /// What focus recovery needs to know of the state before a layout changed.
  struct RecoveryContext {
    /// The focused item before.
    var previous: String?
    /// Its presented frame before.
    var lastFrame: Rect?
    /// The ids of its groups before, innermost first.
    var oldGroups: [String] = []
    /// The innermost trapping group around it before.
    var oldTrap: String?
    /// The scroll offsets before.
    var scrolledSince: [String: Point]
  }

  /// The state's ``RecoveryContext``, taken before its layout changes.
  func recoveryContext() -> RecoveryContext {
    var context = RecoveryContext(
      previous: focused, lastFrame: focusedPosition.map(presentedFrame(at:)),
      scrolledSince: scrollOffsets)
    if let position = focusedPosition {
      let group = index.groupOf(position)
      if group >= 0 { context.oldGroups = index.ancestors(of: group).map { index.nodes[$0].id } }
      let trap = trapScope(ofItem: position)
      if trap >= 0 { context.oldTrap = index.nodes[trap].id }
    }
    return context
  }

  /// Replaces the layout and, if the focused item is gone or unfocusable, recovers focus.
  mutating func replaceAndRecover(
    _ layout: Layout, cause: FocusCause?, focusing target: FocusTarget? = nil
  ) -> [FocusEffect] {
    let context = recoveryContext()
    let textChanges = replace(layout)
    return recoverFocus(context, cause: cause, focusing: target) + textChanges
  }

  /// After a layout change: focus on the patch's target, else stays if it can, else recovers.
  mutating func recoverFocus(
    _ context: RecoveryContext, cause: FocusCause?, focusing target: FocusTarget?
  ) -> [FocusEffect] {
    let (previous, lastFrame, oldGroups, oldTrap, before) = (
      context.previous, context.lastFrame, context.oldGroups, context.oldTrap,
      context.scrolledSince
    )
    var effects: [FocusEffect] = []
    // `focused` differs from `previous` only when its key moved it (followVirtualKeys).
    let current = focused
    if let target, case .success(let position) = resolve(target) {
      // The patch names where focus goes: one step, no recovery in between.
      let stays = current.flatMap { index.position(of: $0) } == position
      pressed = stays ? pressed : nil
      lastInputWasDirectional = stays ? lastInputWasDirectional : false
      lastInputWasPointer = stays ? lastInputWasPointer : false
      if stays {
        focus(current)
        appendKeyMove(from: previous, to: current, cause: cause, &effects)
        appendScrolls(since: before, to: &effects)
        return effects
      }
      return changeFocus(to: position, heading: .programmatic, cause: cause)
    }
    if let current, let position = index.position(of: current), index.isFocusable(position) {
      focus(current)  // Stays; its frame may have moved, so scroll again.
      appendKeyMove(from: previous, to: current, cause: cause, &effects)
      appendScrolls(since: before, to: &effects)
      return effects
    }
    pressed = nil
    if previous != nil, lastInputWasPointer {
      // The HIG's rule for the pointer: focus is hidden rather than moved.
      pointer.pressing = false
      return changeFocus(to: nil, heading: .recovery, cause: cause)
    }
    // A virtual group that shrank below the focused index: its last item.
    var next: Int? = previous.flatMap(virtualRecovery(forID:))
    if next == nil, let lastFrame, lastInputWasDirectional {
      let scope = oldTrap.flatMap { index.groupIndex[$0] } ?? -1
      next = nearest(to: lastFrame, scope: scope) ?? nearest(to: lastFrame)
    } else if next == nil, previous != nil {
      for name in oldGroups {
        if let group = index.groupIndex[name], let entry = entryItem(ofGroup: group, scope: -1) {
          next = entry
          break
        }
      }
    }
    if next == nil { next = initialFocus().flatMap { index.position(of: $0) } }
    let heading: FocusHeading = previous == nil ? .initial : .recovery
    if next == nil && previous == nil { return effects }
    return changeFocus(to: next, heading: heading, cause: cause)
  }
}
