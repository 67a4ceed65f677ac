import FocusEngine
import TenFootProtocol

extension InputLimits {
  /// The first id or free-text field of `envelope` that breaks ``TextRules``, as a typed
  /// error naming the field, or nil. Pure.
  ///
  /// `sender` is an id (or empty): `MALFORMED`. Screen, item and group ids of requests and the
  /// typed text are `INVALID_INPUT`; a layout's screen id and a patch's ids `INVALID_LAYOUT`
  /// (titles and the ids inside a layout are the layout validation's, which names the item).
  /// Empty is allowed where the field means "none" (an input's or heartbeat's screen, a patch's
  /// top-level parent).
  static func stringProblem(
    _ envelope: Tenfoot_V1_Envelope, body: Tenfoot_V1_Envelope.OneOf_Body?
  ) -> Tenfoot_V1_Error? {
    if !envelope.sender.isEmpty, let problem = TextRules.idProblem(envelope.sender) {
      return error(.malformed, "sender: " + problem)
    }
    // A press, the broker's hottest request: its ids are checked in place, not gathered.
    if case .input(let input) = body { return inputProblem(input) }
    var ids: [(field: String, value: String)] = []
    var code = Tenfoot_V1_ErrorCode.invalidInput
    switch body {
    case .hello(let hello):
      if let problem = TextRules.textProblem(hello.client) {
        return error(.invalidInput, "hello.client: " + problem)
      }
    case .registerScreen(let request):
      code = .invalidLayout
      ids = [("screen_id", request.screenID)]
    case .patchLayout(let request):
      code = .invalidLayout
      ids = patchIDs(request)
    case .focusRequest(let request):
      ids = [("focus_request.screen_id", request.screenID)]
      switch request.target {
      case .item(let id): ids.append(("focus_request.item", id))
      case .group(let id): ids.append(("focus_request.group", id))
      case .any(let id): ids.append(("focus_request.any", id))
      case nil: break
      }
    case .debugRequest(let request):
      ids = [("debug_request.screen_id", request.screenID)]
      switch request.query {
      case .explainItem(let id): ids.append(("debug_request.explain_item", id))
      case .dryRun(let name): ids.append(("debug_request.dry_run", name))
      default: break
      }
    case .snapshotRequest(let request):
      ids = [("snapshot_request.screen_id", request.screenID)]
    case .openPairing(let request):
      ids = [("open_pairing.screen_id", request.screenID)]
    case .heartbeat(let heartbeat):
      if !heartbeat.screenID.isEmpty { ids = [("heartbeat.screen_id", heartbeat.screenID)] }
    default: break
    }
    for (field, value) in ids {
      let limit = field.hasSuffix("screen_id") ? ScreenID.maxLength : TextRules.maximumIDLength
      // Item ids may name a virtual item (`group#index`); screen ids may not.
      let problem =
        field.hasSuffix("screen_id")
        ? TextRules.idProblem(value, maximumLength: limit)
        : TextRules.itemIDProblem(value, maximumLength: limit)
      if let problem {
        return error(code, "\(field): \(problem)")
      }
    }
    return nil
  }

  /// The first problem with a key input read straight from its frame: what
  /// `problem(_:body:)` finds in the envelope SwiftProtobuf decodes from the same bytes (a key
  /// input has no text, and its key and phase are KeyMapping's to check).
  static func problem(_ input: KeyInputFrame) -> Tenfoot_V1_Error? {
    if !input.sender.isEmpty, let problem = TextRules.idProblem(input.sender) {
      return error(.malformed, "sender: " + problem)
    }
    return idsProblem(screen: input.screenID, press: input.pressID)
  }

  /// An input's screen and press ids and its typed text (`stringProblem` for an input).
  private static func inputProblem(_ input: Tenfoot_V1_Input) -> Tenfoot_V1_Error? {
    if let problem = idsProblem(screen: input.screenID, press: input.pressID) { return problem }
    if case .text(let text) = input.event {
      switch text.edit {
      case .set(let value), .append(let value):
        if let problem = TextRules.textProblem(value) {
          return error(.invalidInput, "text: " + problem)
        }
      default: break
      }
    }
    return nil
  }

  /// An input's screen id and press id (each may be empty: none).
  private static func idsProblem(screen: String, press: String) -> Tenfoot_V1_Error? {
    if !screen.isEmpty,
      let problem = TextRules.idProblem(screen, maximumLength: ScreenID.maxLength)
    {
      return error(.invalidInput, "input.screen_id: \(problem)")
    }
    if !press.isEmpty,
      let problem = TextRules.itemIDProblem(press, maximumLength: TextRules.maximumIDLength)
    {
      return error(.invalidInput, "input.press_id: \(problem)")
    }
    return nil
  }

  /// The ids a patch names outside the items, groups and guides it adds (those are checked by
  /// layout validation once the patch is applied).
  private static func patchIDs(_ request: Tenfoot_V1_PatchLayout) -> [(String, String)] {
    var ids = [("patch.screen_id", request.screenID)]
    switch request.focus {
    case .focusItem(let id): ids.append(("patch.focus_item", id))
    case .focusGroup(let id): ids.append(("patch.focus_group", id))
    case nil: break
    }
    for (index, operation) in request.operations.enumerated() {
      let path = "operations[\(index)]"
      switch operation.op {
      case .addItem(let add):
        if !add.group.isEmpty { ids.append((path + ".group", add.group)) }
        if !add.before.isEmpty { ids.append((path + ".before", add.before)) }
      case .addGroup(let add) where !add.parent.isEmpty: ids.append((path + ".parent", add.parent))
      case .removeItem(let id), .removeGroup(let id), .removeGuide(let id):
        ids.append((path, id))
      case .moveItem(let move): ids.append((path + ".id", move.id))
      case .setItemAvailable(let set), .setGroupEnabled(let set), .setGuideEnabled(let set):
        ids.append((path + ".id", set.id))
      case .setVirtualContent(let set): ids.append((path + ".group", set.group))
      default: break
      }
    }
    return ids
  }
}
