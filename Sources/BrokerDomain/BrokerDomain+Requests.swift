import FocusEngine

extension BrokerDomain {
  /// A layout patch: applied whole or not at all; the new state is published as a snapshot.
  mutating func patch(_ patch: LayoutPatch, screen: String, cause: FocusCause) -> Outcome {
    guard var session = sessions[screen] else { return .error(unknownScreen(screen)) }
    let effects = reduce(&session.focus, .applyPatch(patch), cause: cause)
    for effect in effects {
      if case .layoutRejected(let error) = effect { return .error(.invalidLayout(error)) }
    }
    guard session.focus.layout.items.count <= maxItems else {
      return .error(.tooManyItems(count: session.focus.layout.items.count, limit: maxItems))
    }
    session.seq += 1
    sessions[session.id] = session
    let ack = Acknowledgement(
      screen: session.id, seq: session.seq, focused: session.focus.focused, effects: effects)
    return Outcome(reply: .ack(ack), effects: [.publish(.snapshot(session.snapshot(epoch: epoch)))])
  }

  /// Programmatic focus: the resulting focus, or a typed refusal.
  mutating func requestFocus(_ target: FocusTarget, screen: String, cause: FocusCause)
    -> Outcome
  {
    guard var session = sessions[screen] else { return .error(unknownScreen(screen)) }
    if case .failure(let denial) = session.focus.checkFocusRequest(target) {
      return .error(.focusDenied(denial))
    }
    return step(&session, .event(.requestFocus(target)), cause: cause)
  }

  /// The focus debugger on a live session; changes nothing.
  func debug(_ query: DebugQuery, screen: String) -> Outcome {
    guard let session = sessions[screen] else { return .error(unknownScreen(screen)) }
    let answer: DebugAnswer
    switch query {
    case .explainItem(let id): answer = .explanation(session.focus.explain(id))
    case .tabLoop: answer = .tabLoop(session.focus.tabLoop())
    case .groupTree: answer = .groupTree(session.focus.groupTree())
    case .dryRun(let name):
      guard let input = FocusInput(name) else { return .error(.unknownDebugInput(name)) }
      let (after, effects) = session.focus.dryRun(input.events)
      answer = .dryRun(
        focused: after.focused, moved: after.focused != session.focus.focused, effects: effects)
    }
    return Outcome(reply: .debugReport(screen: session.id, answer))
  }

  /// The display states that differ between `before` and `after`. Only the items an event can
  /// touch are compared (the old and new focus and the items named by effects), so the cost
  /// does not grow with the layout.
  static func changedStates(before: FocusState, after: FocusState, effects: [FocusEffect])
    -> [ItemStateChange]
  {
    var touched: [String] = []
    func touch(_ id: String?) {
      if let id, !touched.contains(id) { touched.append(id) }
    }
    touch(before.focused)
    touch(after.focused)
    for effect in effects {
      switch effect {
      case .focusChanged(let context):
        touch(context.previous)
        touch(context.next)
      case .highlighted(let id), .activated(let id), .selectionChanged(let id, _): touch(id)
      case .movementFailed, .scrolled, .focusRequestDenied, .layoutRejected, .textChanged,
        .textRejected, .back, .home, .playPause, .contextMenu, .doubleTap:
        break
      }
    }
    return touched.compactMap { id in
      guard let new = after.displayState(of: id), new != before.displayState(of: id) else {
        return nil
      }
      return ItemStateChange(id: id, state: new)
    }
  }
}
