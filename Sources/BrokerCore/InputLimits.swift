import TenFootProtocol

/// Defensive checks on a decoded control message before the engine sees it, pure: limits the
/// engine's own validation does not cover (sizes, nesting, enum values from newer peers).
/// What the domain or the edge's mapping checks (item counts, keys, phases, coordinates) is
/// not checked again here.
/// Each failure is a typed `Error` for the sender.
public enum InputLimits {
  /// The deepest group nesting a layout may have.
  public static let maximumDepth = 64
  /// The longest text input accepted, in bytes.
  public static let maximumTextBytes = 4096

  /// The first problem with `envelope`, or nil if it is within limits.
  public static func problem(_ envelope: Tenfoot_V1_Envelope) -> Tenfoot_V1_Error? {
    problem(envelope, body: envelope.body)
  }

  /// The first problem with `envelope`, whose body (read once by the caller) is `body`.
  static func problem(_ envelope: Tenfoot_V1_Envelope, body: Tenfoot_V1_Envelope.OneOf_Body?)
    -> Tenfoot_V1_Error?
  {
    if case .appReaction(let reaction) = body {
      return reactionProblem(reaction, sender: envelope.sender)
    }
    // Ids and free text first (the sender's grammar bounds its length): see TextRules.
    if let problem = stringProblem(envelope, body: body) { return problem }
    switch body {
    case .input(let input):
      // Keys, phases and coordinates are checked once, where the edge maps them (KeyMapping).
      if case .text(let text) = input.event {
        let length =
          switch text.edit {
          case .set(let value), .append(let value): value.utf8.count
          default: 0
          }
        if length > maximumTextBytes {
          return error(.invalidInput, "text: longer than \(maximumTextBytes) bytes")
        }
      }
    case .registerScreen(let request):
      // The item count is the domain's rule (BrokerDomain.maxItems).
      let layout = request.layout
      for (index, group) in layout.groups.enumerated() {
        if let path = tooDeep(group, path: "groups[\(index)]", depth: 1) {
          return error(.invalidLayout, "\(path): groups nest deeper than \(maximumDepth)")
        }
      }
      if let problem = enumProblem(layout) { return problem }
      let numbers = [layout.canvas.width, layout.canvas.height]
      if numbers.contains(where: { !$0.isFinite }) {
        return error(.invalidLayout, "canvas: numbers must be finite")
      }
      if let index = layout.items.firstIndex(where: { item in
        [item.frame.x, item.frame.y, item.frame.width, item.frame.height].contains { !$0.isFinite }
      }) {
        return error(.invalidLayout, "items[\(index)].frame: numbers must be finite")
      }
    case .patchLayout(let request):
      if let problem = enumProblem(request.operations) { return problem }
    default: break
    }
    return nil
  }

  /// An app reaction's commands are checked as the requests they stand for (a patch as a
  /// patch, a new layout as a registration), each naming the reaction's screen.
  private static func reactionProblem(_ reaction: Tenfoot_V1_AppReaction, sender: String)
    -> Tenfoot_V1_Error?
  {
    var envelope = Tenfoot_V1_Envelope()
    envelope.protocolVersion = WireProtocol.version
    envelope.sender = sender
    if reaction.commands.isEmpty {
      envelope.body = .snapshotRequest(.with { $0.screenID = reaction.screenID })
      return problem(envelope)
    }
    for (index, command) in reaction.commands.enumerated() {
      switch command.command {
      case .patch(var patch):
        patch.screenID = reaction.screenID
        envelope.body = .patchLayout(patch)
      case .focus(var focus):
        focus.screenID = reaction.screenID
        envelope.body = .focusRequest(focus)
      case .replaceLayout(let layout):
        envelope.body = .registerScreen(
          .with {
            $0.screenID = reaction.screenID
            $0.layout = layout
          })
      case nil: continue  // The edge's mapping names it.
      }
      if var problem = problem(envelope) {
        problem.message = "app_reaction.commands[\(index)]: " + problem.message
        return problem
      }
    }
    return nil
  }

  private static func tooDeep(_ group: Tenfoot_V1_Group, path: String, depth: Int) -> String? {
    if depth > maximumDepth { return path }
    for (index, child) in group.groups.enumerated() {
      if let found = tooDeep(child, path: path + ".groups[\(index)]", depth: depth + 1) {
        return found
      }
    }
    return nil
  }

  static func error(_ code: Tenfoot_V1_ErrorCode, _ message: String) -> Tenfoot_V1_Error {
    var error = Tenfoot_V1_Error()
    error.code = code
    error.message = message
    return error
  }
}
