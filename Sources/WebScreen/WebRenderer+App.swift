import FocusEngine
import Logging
import ScreenCore

extension WebRenderer {
  /// The largest message a developer's page may send (its measured layout: 10,000 items take
  /// about 1 MiB); a larger one closes the page's connection (WebSocket code 1009, "message
  /// too big"), which `tenfoot.js` reports as an error.
  static let appMessageLimit = 8 * 1024 * 1024

  /// Sends a developer's page's answers to `queue` (the screen client's), from now on.
  public func forwardReactions(to queue: AppReactionQueue) {
    shared.reactions.withLock { $0 = queue }
  }

  /// A frame for a developer's page: the state only (the page made the layout). A frame the
  /// broker holds inputs behind (an activation, back, home) while no page is connected is
  /// answered at once with no commands, so a remote is not kept waiting for a page that is
  /// not there.
  func renderForApp(_ frame: ScreenFrame) throws {
    let rendered = PageTrace.enabled ? PageTrace.now() : 0
    let json = try WebMessages.appFrame(frame)
    shared.broadcaster.publish(
      .init(
        layoutVersion: 0, layout: "", frame: json,
        trace: PageTrace.enabled ? [rendered, PageTrace.now()] : []))
    if shared.broadcaster.subscriberCount == 0, frame.events.contains(where: AppReaction.awaits),
      let queue = shared.reactions.withLock({ $0 })
    {
      queue.post(.init(stateSeq: frame.seq, commands: { _ in [] }, refused: { _ in }))
    }
  }

  /// Handles `text` when it is a developer's page's `tenfoot` message (true), posting its
  /// reaction; a message that is not understood, or that the broker refuses, is logged and
  /// goes to `report` as `{"appError":{"message":…}}`, for the connection that sent it only
  /// (a page that connects later never hears an earlier page's error). False: not a `tenfoot`
  /// message.
  static func handleAppMessage(
    _ text: String, shared: Shared, logger: Logger, report: @escaping @Sendable (String) -> Void
  ) -> Bool {
    let refused: @Sendable (String) -> Void = { reason in
      logger.notice("page message refused", metadata: ["reason": "\(reason.prefix(300))"])
      let number = shared.errors.withLock { count in
        count += 1
        return count
      }
      report("{\"appError\":\(WebMessages.appError(reason, number: number))}")
    }
    let message: AppPageMessage
    do {
      guard let parsed = try AppPageMessage.parse(text) else { return false }
      message = parsed
    } catch {
      refused(error.description)
      return true
    }
    guard let queue = shared.reactions.withLock({ $0 }) else { return true }
    queue.post(
      .init(
        stateSeq: message.seq,
        commands: { screen in
          var commands: [AppCommand] = []
          if let layout = message.layout {
            commands = LayoutDiff.commands(
              from: screen.layout, to: layout, focused: screen.focused)
          }
          if let focus = message.focus {
            // With the page's change, in the same step: no focus in between.
            if commands.count == 1, case .patch(var patch) = commands[0] {
              patch.focus = .item(focus)
              commands = [.patch(patch)]
            } else {
              commands.append(.focus(.item(focus)))
            }
          }
          return commands
        }, refused: refused))
    return true
  }
}
