import FocusEngine

extension BrokerDomain {
  /// Applies an app's commands in order; the first refused one is the reply (those before it
  /// stay applied, those after are not tried). A reaction to the frame of a held activation
  /// (or a later one) then releases the inputs held since, applied after the commands.
  mutating func react(
    _ reaction: AppReaction, screen: String, cause: FocusCause, at now: BrokerInstant
  ) -> Outcome {
    guard sessions[screen] != nil else { return .error(unknownScreen(screen)) }
    // It speaks: an app presumed gone after a missed deadline holds activations again.
    sessions[screen]?.hasApp = true
    var effects: [BrokerEffect] = []
    var refusal: BrokerError?
    for command in reaction.commands {
      let outcome: Outcome
      switch command {
      case .patch(let patch): outcome = self.patch(patch, screen: screen, cause: cause, at: now)
      case .focus(let target):
        outcome = requestFocus(target, screen: screen, cause: cause, at: now)
      case .replaceLayout(let layout): outcome = register(screen, layout, at: now)
      }
      effects += outcome.effects
      if case .error(let error) = outcome.reply {
        refusal = error
        break
      }
    }
    if let hold = sessions[screen]?.hold, reaction.stateSeq >= hold.activationSeq {
      effects += releaseHold(of: screen, at: now)
    }
    guard let session = sessions[screen] else { return .error(unknownScreen(screen)) }
    if let refusal { return Outcome(reply: .error(refusal), effects: effects) }
    return Outcome(
      reply: .ack(
        Acknowledgement(
          screen: screen, seq: session.seq, focused: session.focus.focused,
          editingText: session.focus.isEditingText)),
      effects: effects)
  }

  /// Ends `screen`'s hold: the activating request's reply (with the focus as it is now), then
  /// each held input applied in order with its reply. An input that activates again starts a
  /// new hold, and the rest wait in it.
  mutating func releaseHold(of screen: String, at now: BrokerInstant) -> [BrokerEffect] {
    holding.remove(screen)
    guard let index = sessions.index(forKey: screen),
      let hold = sessions.values[index].hold
    else { return [] }
    sessions.values[index].hold = nil
    let session = sessions.values[index]
    var ack = hold.ack
    ack.seq = session.seq
    ack.focused = session.focus.focused
    ack.editingText = session.focus.isEditingText
    var effects: [BrokerEffect] = [.release(token: hold.token, reply: .ack(ack))]
    for held in hold.queued {
      if sessions[screen]?.hold != nil {
        sessions[screen]?.hold?.queued.append(held)
        continue
      }
      let outcome = applyHeld(
        held.input, screen: screen, remote: held.remote, cause: held.cause, token: held.token,
        at: now)
      effects += outcome.effects
      if case .held = outcome.reply { continue }  // It activated: its reply waits in turn.
      effects.append(.release(token: held.token, reply: outcome.reply))
    }
    return effects
  }

  /// Whether a request's reply waits under `token` (a hold's activation or an input queued
  /// in it). The runtime asks after a failed group commit put sessions back: a held reply
  /// whose hold was undone is answered there and then.
  public func isHolding(token: UInt64) -> Bool {
    holding.contains { screen in
      guard let hold = sessions[screen]?.hold else { return false }
      return hold.token == token || hold.queued.contains { $0.token == token }
    }
  }

  /// When the next hold runs out, if any screen holds inputs.
  public var nextHoldDeadline: BrokerInstant? {
    holding.compactMap { sessions[$0]?.hold?.deadline }.min()
  }

  /// Releases the holds whose app did not react by their deadline (the inputs go on without
  /// it), screen by screen; each comes with the records to persist first.
  public mutating func releaseExpiredHolds(at now: BrokerInstant) -> [(
    screen: String, effects: [BrokerEffect]
  )] {
    var released: [(screen: String, effects: [BrokerEffect])] = []
    for screen in holding.sorted() {
      guard let hold = sessions[screen]?.hold else {
        holding.remove(screen)
        continue
      }
      guard !(now < hold.deadline) else { continue }
      touch(screen)
      // The app said nothing in time: presumed gone until it reacts or attaches again.
      sessions[screen]?.hasApp = false
      var outcome = Outcome(reply: .held(token: 0, screen: screen))
      outcome.effects = releaseHold(of: screen, at: now)
      persistIfChanged(screen, &outcome)
      released.append((screen, outcome.effects))
    }
    return released
  }
}
