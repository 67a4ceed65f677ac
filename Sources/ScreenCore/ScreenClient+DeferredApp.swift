import FocusEngine
import TenFootProtocol

/// What the loop keeps about an app that answers later (`AppReactionQueue`).
struct DeferredAppState {
  /// The newest state sequence a reaction was sent for.
  var answered: UInt64 = 0
  /// The layout the last accepted reaction left, and the broker's sequence once it applied
  /// it: newer than the frame shown until the delta arrives, so the next reaction is made
  /// against it (two page changes in a row must not both patch the same old layout).
  var predicted: (layout: Layout, seq: UInt64)?
}

extension ScreenClient {
  /// After rendering `frame` for an app that answers later: a frame with an activation, back
  /// or home gets an empty reaction if the app has not answered it within the deadline.
  func awaitDeferredReaction(to frame: ScreenFrame) {
    guard let deadline = configuration.appAnswersLater, let loop,
      frame.events.contains(where: AppReaction.awaits)
    else { return }
    let seq = frame.seq
    loop.schedule(after: deadline) { [unowned self] in
      guard deferred.answered < seq else { return }
      logger.notice(
        "the page did not answer in time: the held inputs go on",
        metadata: ["seq": "\(seq)", "deadline": "\(deadline)"])
      send(AppReaction(stateSeq: seq, commands: []), refused: { _ in })
    }
  }

  /// Sends what `reactions` holds, each made against the screen's state now.
  func sendQueuedReactions() {
    for reaction in reactions.drain() {
      guard let frame = sync.frame else {
        reaction.refused("the screen has no state yet: try again after the first frame")
        continue
      }
      var screenFrame = frame
      if let predicted = deferred.predicted, predicted.seq > frame.seq {
        screenFrame.layout = predicted.layout
      }
      let commands: [AppCommand]
      do {
        commands = try reaction.commands(AppScreen(frame: screenFrame))
      } catch {
        logger.notice("app reaction not made", metadata: ["error": "\(error)"])
        reaction.refused("\(error)")
        // An awaited frame is still answered, so its held inputs go on.
        if let seq = reaction.stateSeq {
          send(AppReaction(stateSeq: seq, commands: []), refused: { _ in })
        }
        continue
      }
      let seq = reaction.stateSeq ?? frame.seq
      guard !commands.isEmpty || seq > deferred.answered && reaction.stateSeq != nil else {
        reaction.accepted()
        continue
      }
      // Predicted at once (the next reaction may be made before this one's ack), with the
      // broker's sequence once the ack says it.
      let expected = Self.layout(after: commands, from: screenFrame.layout)
      if let expected { deferred.predicted = (expected, .max) }
      send(AppReaction(stateSeq: seq, commands: commands), refused: reaction.refused) {
        [unowned self] acked in
        if acked != nil { reaction.accepted() }
        guard let expected, deferred.predicted?.seq == .max else { return }
        deferred.predicted = acked.map { (expected, $0) }
      }
    }
  }

  /// The layout `commands` leave `layout` in (nil: one of them does not apply, or focus only).
  private static func layout(after commands: [AppCommand], from layout: Layout) -> Layout? {
    var result = layout
    for command in commands {
      switch command {
      case .patch(let patch):
        guard let applied = try? patch.applied(to: result) else { return nil }
        result = applied
      case .replaceLayout(let replacement): result = replacement
      case .focus: continue
      }
    }
    return result
  }

  /// Sends one reaction; `answered` hears, on the loop, the broker's sequence after it, or
  /// nil (refused: `refused` hears why; undelivered: logged).
  func send(
    _ reaction: AppReaction, refused: @escaping (String) -> Void,
    answered: @escaping (UInt64?) -> Void = { _ in }
  ) {
    deferred.answered = max(deferred.answered, reaction.stateSeq)
    let message = Tenfoot_V1_AppReaction(reaction, screen: configuration.screenID)
    request(.appReaction(message)) { [logger] result in
      switch result {
      case .success(.ack(let ack)):
        answered(ack.stateSeq)
        return
      case .success(.error(let error)):
        logger.notice(
          "app reaction refused",
          metadata: ["error.code": "\(error.code.name)", "error.message": "\(error.message)"])
        refused("\(error.code.name): \(error.message)")
      case .failure(let error):
        logger.warning("app reaction not delivered", metadata: ["error": "\(error)"])
        refused("not delivered: \(error)")
      case .success(let body):
        refused("the broker answered \(body) instead of an ack")
      }
      answered(nil)
    }
  }
}
