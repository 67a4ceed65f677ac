/// The rules of the input events, one step each, as ``reduce(_:_:cause:)`` applies them.
extension FocusState {
  /// An arrow: focus goes to the directional search's winner; a pointer that left focus
  /// hidden starts the move from the item nearest it. A successful move cancels a held
  /// select press without activating (the finger slid off the button).
  mutating func moveStep(_ direction: Direction, cause: FocusCause?) -> [FocusEffect] {
    hidePointerForDirectionalInput()
    if let near = itemNearPointer() {
      // The pointer left focus hidden: the arrow starts from the item nearest the pointer.
      lastInputWasDirectional = true
      lastInputWasPointer = false
      return changeFocus(to: near, heading: FocusHeading(direction), cause: cause)
    }
    guard let from = focusedPosition, let to = moveDestination(from: from, direction) else {
      return [.movementFailed(FocusHeading(direction))]
    }
    lastInputWasPointer = false
    lastInputWasDirectional = true
    pressed = nil
    return changeFocus(to: to, heading: FocusHeading(direction), cause: cause)
  }

  /// Tab or Shift-Tab: the primary item of the next (previous) stop of the Tab loop.
  mutating func tabStep(_ tab: TabDirection, cause: FocusCause?) -> [FocusEffect] {
    let heading: FocusHeading = tab == .next ? .next : .previous
    hidePointerForDirectionalInput()
    guard let to = tabDestination(tab) else { return [.movementFailed(heading)] }
    lastInputWasPointer = false
    lastInputWasDirectional = false
    pressed = nil
    return changeFocus(to: to, heading: heading, cause: cause)
  }

  /// The select button goes down: the focused item becomes highlighted.
  mutating func selectDownStep() -> [FocusEffect] {
    guard let focused, pressed == nil, isFocusable(focused) else { return [] }
    pressed = focused
    return [.highlighted(focused)]
  }

  /// The select button comes up: the highlighted item is activated and, if it toggles, its
  /// selected flag flips.
  mutating func selectUpStep() -> [FocusEffect] {
    guard let pressed else { return [] }
    self.pressed = nil
    guard isFocusable(pressed) else { return [] }
    var effects: [FocusEffect] = [.activated(pressed)]
    if item(pressed)?.toggles == true {
      let isSelected = !selected.contains(pressed)
      if isSelected {
        selected.insert(pressed)
      } else {
        selected.remove(pressed)
      }
      effects.append(.selectionChanged(id: pressed, selected: isSelected))
    }
    return effects
  }

  /// A programmatic request: focus goes to the target's item, or the request is refused
  /// with the reason.
  mutating func requestFocusStep(_ target: FocusTarget, cause: FocusCause?) -> [FocusEffect] {
    switch resolve(target) {
    case .failure(let error):
      return [.focusRequestDenied(error)]
    case .success(let position):
      guard position != focusedPosition else { return [] }
      lastInputWasDirectional = false
      lastInputWasPointer = false
      pressed = nil
      return changeFocus(to: position, heading: .programmatic, cause: cause)
    }
  }

  /// Typing into the focused text field: the new text, at most
  /// ``Layout/maximumTextLength`` bytes, or why it was refused.
  mutating func textStep(_ edit: TextEdit) -> [FocusEffect] {
    guard let focused, isEditingText, isFocusable(focused) else {
      return [.textRejected("no text field has focus")]
    }
    let old = textValues[focused] ?? ""
    let new: String
    switch edit {
    case .set(let text): new = text
    case .append(let text): new = old + text
    case .clear: new = ""
    }
    guard new.utf8.count <= Layout.maximumTextLength else {
      return [
        .textRejected("text would be \(new.utf8.count) bytes (at most \(Layout.maximumTextLength))")
      ]
    }
    guard new != old else { return [] }
    textValues[focused] = new
    return [.textChanged(id: focused, value: new)]
  }
}
