/// Turns the engine's effects into what a screen reader says (the Lightning announcer's focus
/// path, VoiceOver's item description). Pure: the time of each step comes in as data, and the
/// only state is when the last edge cue was spoken.
///
/// The rules, in speaking order:
/// - **Focus moved**: the labels of the groups focus entered (outermost first; groups it was
///   already in are not repeated), the item's label, its content's subtitle and badge (as
///   values: the subtitle at high verbosity, the badge at normal and high), its value, its
///   traits, its position among
///   the focusable items of its group ("4 of 12": unavailable items and headings are not
///   counted, nor items of nested groups; "1 of 1" is not said) and, after a pause, its hint.
///   Low verbosity says only the groups, label, value and `selected` (no badge, no
///   subtitle); high adds the subtitle and the hint.
///   Several moves in one step (a coast, an auto-repeat) are described once, from where focus
///   was to where it ended. It interrupts speech still going.
/// - **Activated**: "activated", unless the item is a toggle whose selection flip is said.
/// - **Selection toggled** on the focused item: "selected" or "not selected" (not repeated
///   when the focus description already says it).
/// - **Text edited**: the field's new text, or "empty". It interrupts.
/// - **Edge bump**: "end of row" (left, right), "end of column" (up, down), "end of list"
///   (Tab): at most once per ``bumpInterval``, so a held arrow does not chatter. A move
///   refused only because a trapping group holds focus says "trapped in <group>" instead
///   (always: it is a refusal, not a cue).
/// - **Refusals**: a programmatic focus request that cannot be honoured says why
///   ("unavailable", "trapped in <group>", "not found"); text with no text field focused says
///   "no text field".
public struct Announcer: Sendable, Equatable {
  /// The least time between two edge cues, in nanoseconds (1.5 s).
  public var bumpInterval: UInt64
  /// When the last edge cue was said (nanoseconds on the caller's clock), if ever.
  public private(set) var lastBump: UInt64?

  /// An announcer that has said nothing yet.
  public init(bumpInterval: UInt64 = 1_500_000_000) {
    self.bumpInterval = bumpInterval
  }

  /// What to say for one step that took the session from `before` to `after` with `effects`,
  /// at `time` (nanoseconds on a monotonic clock), by the verbosity of `after`'s layout; nil
  /// when there is nothing to say.
  ///
  /// - Complexity: O(k) in the number of effects and the size of the focused item's group.
  public mutating func announce(
    _ effects: [FocusEffect], before: FocusState, after: FocusState, at time: UInt64
  ) -> Announcement? {
    announce(effects, from: before.prior, in: before, after: after, at: time)
  }

  /// ``announce(_:before:after:at:)`` for the state before the step given as `prior` read on
  /// `tables`, the state whose layout tables it had (`after` itself when the step kept them;
  /// see ``FocusState/Prior``).
  public mutating func announce(
    _ effects: [FocusEffect], from prior: FocusState.Prior, in tables: FocusState,
    after: FocusState, at time: UInt64
  ) -> Announcement? {
    let verbosity = after.layout.verbosity
    var parts: [AnnouncementPart] = []
    var interrupt = false
    var described = false
    if effects.contains(where: \.isFocusChange), let next = after.focused,
      next != prior.focused || effects.contains(where: \.isRecovery)
    {
      // Both items read at the positions their states keep (`prior`'s on `tables`): no id
      // looked up (about 350 instructions a move).
      let was = prior.focusedAt.map { tables.groupIDs(at: $0) } ?? []
      parts = Self.describe(
        next, at: after.focusedPosition, in: after, leaving: Set(was), verbosity: verbosity)
      interrupt = true
      described = true
    }
    for effect in effects {
      switch effect {
      case .activated(let id):
        let flips = effects.contains {
          if case .selectionChanged(id, _) = $0 { return true }
          return false
        }
        if !flips { parts.append(AnnouncementPart(.action, "activated")) }
      case .selectionChanged(let id, let isSelected) where id == after.focused && !described:
        parts.append(AnnouncementPart(.value, isSelected ? "selected" : "not selected"))
      case .textChanged(_, let value):
        parts.append(AnnouncementPart(.value, value.isEmpty ? "empty" : value))
        interrupt = true
      case .movementFailed(let heading):
        if let part = edgePart(heading, in: after, at: time) { parts.append(part) }
      case .focusRequestDenied(let error):
        parts.append(AnnouncementPart(.refusal, Self.refusal(error, in: after)))
      case .textRejected:
        parts.append(AnnouncementPart(.refusal, "no text field"))
      case .focusChanged, .highlighted, .selectionChanged, .scrolled, .layoutRejected, .back,
        .home, .playPause, .contextMenu, .doubleTap, .itemsInView:
        break
      }
    }
    return parts.isEmpty ? nil : Announcement(parts: parts, interrupt: interrupt)
  }

  /// The whole description of the focused item, every labelled group around it included, as
  /// if focus had just arrived (a session's first focus); nil if nothing is focused.
  public func announceFocus(in state: FocusState) -> Announcement? {
    guard let id = state.focused else { return nil }
    let parts = Self.describe(
      id, at: state.focusedPosition, in: state, leaving: [], verbosity: state.layout.verbosity)
    return parts.isEmpty ? nil : Announcement(parts: parts, interrupt: true)
  }

  /// The focus description of item `id` in `state`: the labelled groups around it except
  /// those in `was` (the groups focus was already in), label, value, traits, position, hint.
  static func describe(
    _ id: String, in state: FocusState, leaving was: Set<String>, verbosity: Verbosity
  ) -> [AnnouncementPart] {
    describe(id, at: state.index.position(of: id), in: state, leaving: was, verbosity: verbosity)
  }

  /// ``describe(_:in:leaving:verbosity:)`` of item `id` at `position` in `state`'s index (nil:
  /// not there).
  static func describe(
    _ id: String, at position: Int?, in state: FocusState, leaving was: Set<String>,
    verbosity: Verbosity
  ) -> [AnnouncementPart] {
    // The item is looked up once; the parts go into one buffer (a description has at most a
    // few groups and seven other parts).
    guard let position else { return [] }
    let item = state.itemValue(at: position)
    var parts: [AnnouncementPart] = []
    parts.reserveCapacity(8)
    for group in state.labelledGroups(at: position) where !was.contains(group.id) {
      parts.append(AnnouncementPart(.group, group.label))
    }
    if let label = FocusState.accessibilityLabel(of: item) {
      parts.append(AnnouncementPart(.label, label))
    }
    appendContentParts(item.content, verbosity: verbosity, to: &parts)
    if let value = state.accessibilityValue(of: item, id: id) {
      parts.append(AnnouncementPart(.value, value))
    }
    state.forEachAccessibilityTrait(of: item, id: id, at: position) { trait in
      if verbosity != .low || trait == .selected {
        parts.append(AnnouncementPart(.trait, trait.spoken))
      }
    }
    if verbosity != .low, let place = state.accessibilityPosition(at: position), place.count > 1 {
      parts.append(AnnouncementPart(.position, spokenPosition(place.index, of: place.count)))
    }
    if verbosity == .high, let hint = item.accessibility.hint, !hint.isEmpty {
      parts.append(AnnouncementPart(.hint, hint))
    }
    return parts
  }

  /// What the item's content adds after its label: its subtitle (high verbosity) and its
  /// badge (normal and high), as value parts (the wire's kinds; they are the item's words),
  /// appended to `parts`.
  static func appendContentParts(
    _ content: ItemContent?, verbosity: Verbosity, to parts: inout [AnnouncementPart]
  ) {
    guard let content else { return }
    if verbosity == .high, let subtitle = content.subtitle, !subtitle.isEmpty {
      parts.append(AnnouncementPart(.value, subtitle))
    }
    if verbosity != .low, let badge = content.badge, !badge.isEmpty {
      parts.append(AnnouncementPart(.value, badge))
    }
  }

  /// The edge cue for a failed move, rate-limited; or the trap refusal, always.
  private mutating func edgePart(_ heading: FocusHeading, in state: FocusState, at time: UInt64)
    -> AnnouncementPart?
  {
    if let direction = heading.direction, state.isTrapped(moving: direction) {
      return AnnouncementPart(.refusal, Self.trapped(in: state.trappingGroup?.label))
    }
    if let last = lastBump, time >= last, time - last < bumpInterval { return nil }
    lastBump = time
    switch heading {
    case .left, .right: return AnnouncementPart(.edge, "end of row")
    case .up, .down: return AnnouncementPart(.edge, "end of column")
    case .next, .previous, .programmatic, .recovery, .initial, .pointer:
      return AnnouncementPart(.edge, "end of list")
    }
  }

  /// Why a focus request was refused, in words.
  static func refusal(_ error: FocusRequestError, in state: FocusState) -> String {
    switch error.reason {
    case .unavailable:
      let name = state.accessibilityLabel(ofItem: error.target)
      return name.map { "\($0), unavailable" } ?? "unavailable"
    case .outsideTrappingGroup: return trapped(in: state.trappingGroup?.label)
    case .unknown: return "not found"
    case .ambiguous: return "ambiguous"
    }
  }

  static func trapped(in label: String?) -> String {
    label.map { "trapped in \($0)" } ?? "trapped in this dialog"
  }
}

extension FocusEffect {
  /// Whether this is a focus update.
  fileprivate var isFocusChange: Bool {
    if case .focusChanged = self { return true }
    return false
  }

  /// Whether this is a focus update that recovered from a vanished item.
  fileprivate var isRecovery: Bool {
    if case .focusChanged(let context) = self { return context.heading == .recovery }
    return false
  }
}

extension FocusHeading {
  /// The direction of a directional heading; nil for the others.
  var direction: Direction? {
    switch self {
    case .up: .up
    case .down: .down
    case .left: .left
    case .right: .right
    case .next, .previous, .programmatic, .recovery, .initial, .pointer: nil
    }
  }
}

/// A count as spoken and shown: thousands separated by commas ("1,234", "1,000,000").
func grouped(_ value: Int) -> String {
  // Below a thousand there is no separator: the plain decimal form.
  if value > -1000 && value < 1000 { return String(value) }
  let digits = String(value.magnitude)
  var out = value < 0 ? "-" : ""
  for (offset, character) in digits.enumerated() {
    if offset > 0, (digits.count - offset) % 3 == 0 { out.append(",") }
    out.append(character)
  }
  return out
}

/// A position as spoken: "4 of 12", the numbers grouped by thousands.
func spokenPosition(_ index: Int, of count: Int) -> String {
  // Both below a thousand (nearly every group): the digits written straight into one small
  // string ("999 of 999" is 10 bytes), not two numbers made and appended (about 550
  // instructions a description less).
  guard (0..<1000).contains(index), (0..<1000).contains(count) else {
    var text = grouped(index)
    text += " of "
    text += grouped(count)
    return text
  }
  return String(unsafeUninitializedCapacity: 10) { buffer in
    var end = writeDigits(index, to: buffer, at: 0)
    for byte in " of ".utf8 {
      buffer[end] = byte
      end += 1
    }
    return writeDigits(count, to: buffer, at: end)
  }
}

/// Writes `value` (0 to 999) in decimal at `start` of `buffer`; returns the end.
private func writeDigits(_ value: Int, to buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int)
  -> Int
{
  var end = start
  if value >= 100 {
    buffer[end] = UInt8(truncatingIfNeeded: 48 + value / 100)
    end += 1
  }
  if value >= 10 {
    buffer[end] = UInt8(truncatingIfNeeded: 48 + value / 10 % 10)
    end += 1
  }
  buffer[end] = UInt8(truncatingIfNeeded: 48 + value % 10)
  return end + 1
}
