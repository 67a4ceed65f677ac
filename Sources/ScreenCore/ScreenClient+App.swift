import FocusEngine
import Logging
import TenFootProtocol

/// An app running inside this screen: its events from each frame, its commands sent as one
/// reaction.
extension ScreenClient {
  /// Lets the app react to a frame's events and sends its commands as one reaction: always
  /// for a frame with an activation, back or home (the broker holds the inputs after them
  /// until it hears the app) unless the app answers later (`appAnswersLater`: its answer
  /// comes through `reactions`, or the deadline's), else only when there are commands. A
  /// refusal is logged (the app asked for something the engine would not do).
  func react(_ app: any ScreenApp, to frame: ScreenFrame) {
    var events = AppEvent.events(in: frame, previous: appFrame)
    var commands: [AppCommand] = []
    if appFrame == nil {
      events.insert(.joined, at: 0)
      // An app in its own process puts its layout on the screen it joins.
      if configuration.layout == nil, let layout = app.layout {
        commands.append(.replaceLayout(layout))
      }
    } else if appResyncing {
      events.insert(.resynced, at: 0)
    }
    appResyncing = false
    appFrame = frame
    let screen = AppScreen(frame: frame)
    for event in events { commands += app.react(to: event, on: screen) }
    let awaited =
      configuration.appAnswersLater == nil && frame.events.contains(where: AppReaction.awaits)
    guard !commands.isEmpty || awaited else { return }
    let reaction = Tenfoot_V1_AppReaction(
      AppReaction(stateSeq: frame.seq, commands: commands), screen: configuration.screenID)
    request(.appReaction(reaction)) { [logger] result in
      switch result {
      case .success(.error(let error)):
        logger.warning(
          "app reaction refused",
          metadata: [
            "commands": "\(commands.count)", "error.code": "\(error.code.name)",
            "error.message": "\(error.message)",
          ])
      case .failure(let error):
        logger.warning("app reaction not delivered", metadata: ["error": "\(error)"])
      case .success: break
      }
    }
  }

  /// Whether this client is an app in its own process, attached to a screen another process
  /// shows (it registers nothing).
  var isAttachedApp: Bool { app != nil && configuration.layout == nil }
}
