/// Applies one event to a focus state and returns what happened, in order.
///
/// Pure and deterministic: no I/O, no clock. An event that changes nothing returns no effects,
/// except a directional move with no candidate, which returns ``FocusEffect/movementFailed(_:)``
/// (the edge bump) and leaves the state as it was.
///
/// - `move`: focus goes to ``FocusState/destination(from:_:)``. A successful move cancels a
///   held select press without activating (the finger slid off the button).
/// - `selectDown`: the focused item becomes highlighted.
/// - `selectUp`: the highlighted item is activated and, if it toggles, its selected flag flips.
/// - `replaceLayout`: see ``FocusEvent/replaceLayout(_:)``.
@discardableResult
public func reduce(_ state: inout FocusState, _ event: FocusEvent) -> [FocusEffect] {
  switch event {
  case .move(let direction):
    guard let from = state.focused else {
      // Nothing focused (an empty or all-unavailable layout): nothing to move.
      return [.movementFailed(direction)]
    }
    guard let to = state.destination(from: from, direction) else {
      return [.movementFailed(direction)]
    }
    state.pressed = nil
    state.focused = to
    return [.focusChanged(FocusUpdateContext(previous: from, next: to, heading: .init(direction)))]

  case .selectDown:
    guard let focused = state.focused, state.pressed == nil else { return [] }
    state.pressed = focused
    return [.highlighted(focused)]

  case .selectUp:
    guard let pressed = state.pressed else { return [] }
    state.pressed = nil
    var effects: [FocusEffect] = [.activated(pressed)]
    if state.item(pressed)?.toggles == true {
      let isSelected = !state.selected.contains(pressed)
      if isSelected {
        state.selected.insert(pressed)
      } else {
        state.selected.remove(pressed)
      }
      effects.append(.selectionChanged(id: pressed, selected: isSelected))
    }
    return effects

  case .replaceLayout(let layout):
    let previous = state.focused
    let lastFrame = previous.flatMap { state.item($0)?.frame }
    state.replace(layout)
    if let previous, state.item(previous)?.available == true {
      return []  // Focus stays; a held press stays with it.
    }
    state.pressed = nil
    let next: String?
    let heading: FocusHeading
    if let lastFrame {
      next = state.nearest(to: lastFrame)
      heading = .recovery
    } else {
      next = state.initialFocus()
      heading = .initial
    }
    state.focused = next
    guard next != previous else { return [] }
    return [.focusChanged(FocusUpdateContext(previous: previous, next: next, heading: heading))]
  }
}
