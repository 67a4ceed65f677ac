import FocusEngine

extension BrokerDomain {
  /// A layout patch: applied whole or not at all; the new state is published as a snapshot.
  mutating func patch(
    _ patch: LayoutPatch, screen: String, cause: FocusCause, at now: BrokerInstant
  ) -> Outcome {
    guard var session = sessions[screen] else { return .error(unknownScreen(screen)) }
    let before = session.focus
    let effects = reduce(&session.focus, .applyPatch(patch), cause: cause)
    for effect in effects {
      if case .layoutRejected(let error) = effect { return .error(.invalidLayout(error)) }
    }
    guard session.focus.layout.items.count <= maxItems else {
      return .error(.tooManyItems(count: session.focus.layout.items.count, limit: maxItems))
    }
    let announcement = session.announcer.announce(
      effects, before: before, after: session.focus, at: now.nanoseconds)
    session.seq += 1
    sessions[session.id] = session
    let ack = Acknowledgement(
      screen: session.id, seq: session.seq, focused: session.focus.focused, effects: effects)
    var snapshot = session.snapshot(epoch: epoch, announcing: announcement)
    // Only what the patch newly wants: content it sets does not ask for itself again.
    snapshot.itemsInView = effects.compactMap {
      guard case .itemsInView(let group, let range) = $0 else { return nil }
      return VirtualRange(group: group, range: range)
    }
    return Outcome(reply: .ack(ack), effects: [.publish(.snapshot(snapshot))])
  }

  /// Programmatic focus: the resulting focus, or a typed refusal.
  ///
  /// A refusal is the requester's error; its announcement ("unavailable", "trapped in …") is
  /// published to the session's screens as a change that moves nothing.
  mutating func requestFocus(
    _ target: FocusTarget, screen: String, cause: FocusCause, at now: BrokerInstant
  ) -> Outcome {
    guard let index = sessions.index(forKey: screen) else {
      return .error(unknownScreen(screen))
    }
    if case .failure(let denial) = sessions.values[index].focus.checkFocusRequest(target) {
      var outcome = Outcome.error(.focusDenied(denial))
      outcome.effects = Self.announceRefusal(
        &sessions.values[index], [.focusRequestDenied(denial)], cause: cause, epoch: epoch,
        at: now)
      return outcome
    }
    let epoch = epoch
    return Self.step(
      &sessions.values[index], .event(.requestFocus(target)), cause: cause, epoch: epoch,
      at: now)
  }

  /// The publication of a refusal's announcement, if the engine has one for `effects`: a change
  /// that moves nothing (no changed items, no effects, same focus) and only carries what a
  /// screen reader says. It takes the next sequence number so screens apply it in order.
  static func announceRefusal(
    _ session: inout ScreenSession, _ effects: [FocusEffect], cause: FocusCause, epoch: UInt64,
    at now: BrokerInstant
  ) -> [BrokerEffect] {
    guard
      let announcement = session.announcer.announce(
        effects, before: session.focus, after: session.focus, at: now.nanoseconds)
    else { return [] }
    session.seq += 1
    let change = StateChange(
      screen: session.id, epoch: epoch, seq: session.seq, focused: session.focus.focused,
      changed: [], effects: [], parallax: session.parallax, text: [:],
      editingText: session.focus.isEditingText, cause: cause, announcement: announcement)
    return [.publish(.change(change))]
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
  /// does not grow with the layout. Each item is listed once, in the order first touched; an
  /// item touched again is either listed already or unchanged (the check is a pure function of
  /// the id), so no list of touched ids is built.
  static func changedStates(before: FocusState, after: FocusState, effects: [FocusEffect])
    -> [ItemStateChange]
  {
    changedStates(from: before.prior, in: before, after: after, effects: effects)
  }

  /// ``changedStates(before:after:effects:)`` for the state before given as `prior` read on
  /// `tables`, the state whose layout tables it had (`after` itself when the step kept them;
  /// see `FocusState.Prior`). With `keptTables` (`tables` has `after`'s layout tables), the
  /// two focused items are read at their positions, and no id is looked up for them (two
  /// hashes of an id a press).
  static func changedStates(
    from prior: FocusState.Prior, in tables: FocusState, after: FocusState,
    effects: [FocusEffect], keptTables: Bool = false
  ) -> [ItemStateChange] {
    // Room for the two focused items' changes (most steps note no others): one allocation,
    // not two (about 450 instructions a step that publishes).
    var changed: [ItemStateChange] = []
    changed.reserveCapacity(2)
    func note(_ id: String, old: FocusDisplayState?, new: FocusDisplayState?) {
      guard !changed.contains(where: { $0.id == id }), let new, new != old else { return }
      changed.append(ItemStateChange(id: id, state: new))
    }
    func touch(_ id: String?) {
      if let id {
        note(id, old: tables.displayState(of: id, at: prior), new: after.displayState(of: id))
      }
    }
    /// An effect's item, unless it is one of the two focused items (touched first, always).
    func touchNamed(_ id: String?) {
      if id != prior.focused, id != after.focused { touch(id) }
    }
    // The focused items' states are read where each state keeps its focus (no id lookup).
    if let id = prior.focused {
      let new =
        after.focused == id
        ? after.focusedDisplayState
        : keptTables ? after.displayStateOfFocused(at: prior) : after.displayState(of: id)
      note(id, old: tables.focusedDisplayState(at: prior), new: new)
    }
    if let id = after.focused, id != prior.focused {
      let old =
        keptTables
        ? after.priorDisplayStateOfFocused(at: prior) : tables.displayState(of: id, at: prior)
      note(id, old: old, new: after.focusedDisplayState)
    }
    for effect in effects {
      switch effect {
      case .focusChanged(let context):
        touchNamed(context.previous)
        touchNamed(context.next)
      case .highlighted(let id), .activated(let id), .selectionChanged(let id, _): touchNamed(id)
      case .movementFailed, .scrolled, .focusRequestDenied, .layoutRejected, .textChanged,
        .textRejected, .back, .home, .playPause, .contextMenu, .doubleTap, .itemsInView:
        break
      }
    }
    return changed
  }
}
