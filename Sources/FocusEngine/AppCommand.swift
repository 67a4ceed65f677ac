/// What an app asks of the screen it runs: its answer to a frame, in the engine's terms.
public enum AppCommand: Sendable, Equatable {
  /// Change part of the layout (applied whole or not at all), maybe moving focus with it.
  case patch(LayoutPatch)
  /// Programmatic focus (SwiftUI's `FocusState`).
  case focus(FocusTarget)
  /// A whole new layout (a new page), as a screen registering it would.
  case replaceLayout(Layout)
}

/// An app's commands in answer to the frame with state sequence `stateSeq`, applied in order.
public struct AppReaction: Sendable, Equatable {
  /// The state sequence of the frame the app reacted to.
  public var stateSeq: UInt64
  /// What to do, in order.
  public var commands: [AppCommand]

  /// Whether an app answers `effect` (an activation, back, home), so the inputs after it wait
  /// for the app's reaction.
  public static func awaits(_ effect: FocusEffect) -> Bool {
    switch effect {
    case .activated, .back, .home: true
    default: false
    }
  }

  /// A reaction.
  public init(stateSeq: UInt64, commands: [AppCommand]) {
    self.stateSeq = stateSeq
    self.commands = commands
  }
}

extension AppCommand {
  /// Supplies content for items of virtual group `group` by index, the answer to
  /// `itemsInView`: a patch of one ``LayoutPatch/Operation/setVirtualContent(group:items:)``.
  public static func setVirtualContent(group: String, items: [Int: VirtualContent]) -> AppCommand {
    .patch(LayoutPatch([.setVirtualContent(group: group, items: items)]))
  }
}
