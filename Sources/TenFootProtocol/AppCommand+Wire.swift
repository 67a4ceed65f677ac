import FocusEngine

extension Tenfoot_V1_AppCommand {
  /// The wire form of an app's command (a patch's or focus request's screen id is the
  /// reaction's, so it is left empty).
  public init(_ command: AppCommand) {
    self.init()
    switch command {
    case .patch(let patch):
      var request = Tenfoot_V1_PatchLayout()
      request.operations = patch.operations.map(Tenfoot_V1_PatchOperation.init)
      switch patch.focus {
      case .item(let id): request.focus = .focusItem(id)
      case .group(let id): request.focus = .focusGroup(id)
      case .any(let id): request.focus = .focusItem(id)
      case nil: break
      }
      self.command = .patch(request)
    case .focus(let target):
      var request = Tenfoot_V1_FocusRequest()
      switch target {
      case .item(let id): request.target = .item(id)
      case .group(let id): request.target = .group(id)
      case .any(let id): request.target = .any(id)
      }
      self.command = .focus(request)
    case .replaceLayout(let layout): self.command = .replaceLayout(Tenfoot_V1_Layout(layout))
    }
  }
}

extension Tenfoot_V1_AppReaction {
  /// The wire form of an app's reaction on `screen`.
  public init(_ reaction: AppReaction, screen: String) {
    self.init()
    screenID = screen
    stateSeq = reaction.stateSeq
    commands = reaction.commands.map(Tenfoot_V1_AppCommand.init)
  }
}
