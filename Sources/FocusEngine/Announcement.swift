/// What a screen reader says after one step of a session: its parts in speaking order, and
/// whether it cuts off speech still going (a new focus makes the last one stale).
public struct Announcement: Sendable, Hashable {
  /// The parts, in the order they are spoken.
  public var parts: [AnnouncementPart]
  /// Whether speech of earlier announcements stops for this one.
  public var interrupt: Bool

  /// Creates an announcement.
  public init(parts: [AnnouncementPart], interrupt: Bool) {
    self.parts = parts
    self.interrupt = interrupt
  }

  /// The parts as one sentence to speak: joined by commas, the hint after a full stop (the
  /// pause speech engines make at a sentence's end).
  public var text: String {
    var text = ""
    for part in parts where !part.text.isEmpty {
      if !text.isEmpty { text += part.kind == .hint ? ". " : ", " }
      text += part.text
    }
    return text
  }
}

/// One spoken part of an announcement.
public struct AnnouncementPart: Sendable, Hashable {
  /// What the part says.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The label of a group focus entered ("Trending").
    case group
    /// The focused item's label.
    case label
    /// The item's value ("selected", a text field's text).
    case value
    /// One of its traits ("button", "heading").
    case trait
    /// Its position among the focusable items of its group ("4 of 12").
    case position
    /// What activating it does, spoken after a pause.
    case hint
    /// Something the item did ("activated").
    case action
    /// A short cue that focus cannot go further ("end of row").
    case edge
    /// A refused request ("unavailable", "trapped in the dialog").
    case refusal
  }

  /// What the part says.
  public var kind: Kind
  /// The words.
  public var text: String

  /// Creates a part.
  public init(_ kind: Kind, _ text: String) {
    self.kind = kind
    self.text = text
  }
}
