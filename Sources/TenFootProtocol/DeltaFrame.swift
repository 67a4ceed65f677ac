import FocusEngine

/// A delta's contents as a screen applies them, read from its envelope's bytes when they are in
/// the shape `decodedDelta` reads and every effect is one the screen knows (a known heading),
/// without making the generated `Envelope`, `StateDelta` and their nested messages: display
/// states, effects, parallax and announcement come out as engine values, converted as
/// `StateSync` converts the generated ones (unknown display states and announcement parts
/// dropped). Anything else is nil, and the screen takes the generic path.
///
/// Why by hand: the generated messages keep their fields in heap storage, made, written field
/// by field and copied on write; for a move's delta the hand decoder into them cost about
/// 19,900 instructions and applying them 10,100 (callgrind, the latency bench's screen side),
/// where the bare-ZeroMQ floor's client only copies bytes. `DeltaLaneTests` (BrokerCoreTests)
/// holds the lane to the generic path on the broker's deltas, random and mutated frames.
public struct DeltaFrame: Sendable {
  /// The delta's `screen_id`.
  public var screenID = ""
  /// The broker's epoch.
  public var epoch: UInt64 = 0
  /// The delta's sequence number.
  public var seq: UInt64 = 0
  /// The focused item (nil: the field is absent, nothing has focus).
  public var focused: String?
  /// Items whose display state changed, in order (unknown states dropped).
  public var changed: [(id: String, state: FocusDisplayState)] = []
  /// The effects, typed.
  public var events: [FocusEffect] = []
  /// The input that caused the step (the empty cause when absent).
  public var cause = FocusCause(sender: "", sequence: 0)
  /// Scroll offsets by group, in order.
  public var scroll: [(group: String, offset: Point)] = []
  /// The focused item's parallax (nil: absent).
  public var parallax: Parallax?
  /// Text fields' values.
  public var text: [String: String] = [:]
  /// Whether the focused item is a text field.
  public var editingText = false
  /// What to announce (nil: absent, or no part of a known kind).
  public var announcement: Announcement?

  /// The delta the envelope in `bytes` holds in the usual shape; nil otherwise.
  public init?(_ bytes: [UInt8]) {
    guard
      let (_, delta) = Tenfoot_V1_Envelope.readByHand(
        bytes, bodyField: Tenfoot_V1_Envelope.deltaField, body: Self.read)
    else { return nil }
    self = delta
  }

  private init() {}

  /// The `StateDelta` `reader` holds in the shape `Tenfoot_V1_StateDelta.read` reads, with
  /// effects the screen knows; nil otherwise.
  static func read(_ reader: inout WireReader) -> DeltaFrame? {
    var delta = DeltaFrame()
    var order = FieldOrder()
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(),
        order.accepts(field, repeated: field == 5 || field == 6 || field == 8 || field == 10)
      else { return nil }
      switch (field, wireType) {
      case (1, 2):
        guard let screen = reader.string() else { return nil }
        delta.screenID = screen
      case (2, 0):
        guard let epoch = reader.varint() else { return nil }
        delta.epoch = epoch
      case (3, 0):
        guard let seq = reader.varint() else { return nil }
        delta.seq = seq
      case (4, 2):
        guard let focused = reader.string() else { return nil }
        delta.focused = focused
      case (5, 2):
        guard let (id, state) = reader.nested(readItem) else { return nil }
        if let state = FocusDisplayState(wire: state) {
          if delta.changed.isEmpty { delta.changed.reserveCapacity(2) }
          delta.changed.append((id, state))
        }
      case (6, 2):
        guard let effect = reader.nested(readEffect) else { return nil }
        if delta.events.isEmpty { delta.events.reserveCapacity(2) }
        delta.events.append(effect)
      case (7, 2):
        guard let cause = reader.nested(readCause) else { return nil }
        delta.cause = cause
      case (8, 2):
        guard let (group, offset) = reader.nested(readOffset) else { return nil }
        delta.scroll.append((group, offset))
      case (9, 2):
        guard let parallax = reader.nested(readParallax) else { return nil }
        delta.parallax = parallax
      case (10, 2):
        guard let (key, value) = reader.nested({ $0.stringPair() }) else { return nil }
        delta.text[key] = value
      case (11, 0):
        guard let editing = reader.varint() else { return nil }
        delta.editingText = editing != 0
      case (20, 2):
        guard let announcement = reader.nested(readAnnouncement) else { return nil }
        delta.announcement = announcement
      default: return nil
      }
    }
    return delta
  }

  /// An `ItemState`: its id and wire state.
  private static func readItem(_ reader: inout WireReader)
    -> (String, Tenfoot_V1_FocusDisplayState)?
  {
    var item = ("", Tenfoot_V1_FocusDisplayState.unspecified)
    var order = FieldOrder()
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(), order.accepts(field) else { return nil }
      switch (field, wireType) {
      case (1, 2):
        guard let id = reader.string() else { return nil }
        item.0 = id
      case (2, 0):
        guard let state = reader.enumValue(Tenfoot_V1_FocusDisplayState.self) else { return nil }
        item.1 = state
      default: return nil
      }
    }
    return item
  }

  /// A `FocusEffect` of a kind a move makes, with a known heading, as the engine's effect.
  private static func readEffect(_ reader: inout WireReader) -> FocusEffect? {
    guard let (field, wireType) = reader.tag() else { return nil }
    let effect: FocusEffect
    switch (field, wireType) {
    case (1, 2):
      guard let update = reader.nested(readUpdate) else { return nil }
      effect = .focusChanged(update)
    case (2, 0):
      guard let wire = reader.enumValue(Tenfoot_V1_Heading.self),
        let heading = FocusHeading(wire: wire)
      else { return nil }
      effect = .movementFailed(heading)
    case (3, 2):
      guard let id = reader.string() else { return nil }
      effect = .highlighted(id)
    case (4, 2):
      guard let id = reader.string() else { return nil }
      effect = .activated(id)
    case (6, 2):
      guard let (group, offset) = reader.nested(readOffset) else { return nil }
      effect = .scrolled(group: group, offset: offset)
    default: return nil
    }
    return reader.atEnd ? effect : nil
  }

  /// A `FocusUpdate` with a known heading, as the engine's context.
  private static func readUpdate(_ reader: inout WireReader) -> FocusUpdateContext? {
    var previous: String?
    var next: String?
    var heading = Tenfoot_V1_Heading.unspecified
    var cause: FocusCause?
    var order = FieldOrder()
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(), order.accepts(field) else { return nil }
      switch (field, wireType) {
      case (1, 2):
        guard let id = reader.string() else { return nil }
        previous = id
      case (2, 2):
        guard let id = reader.string() else { return nil }
        next = id
      case (3, 0):
        guard let wire = reader.enumValue(Tenfoot_V1_Heading.self) else { return nil }
        heading = wire
      case (4, 2):
        guard let read = reader.nested(readCause) else { return nil }
        cause = read
      default: return nil
      }
    }
    guard let heading = FocusHeading(wire: heading) else { return nil }
    return FocusUpdateContext(previous: previous, next: next, heading: heading, cause: cause)
  }

  /// A `Cause`.
  private static func readCause(_ reader: inout WireReader) -> FocusCause? {
    var cause = FocusCause(sender: "", sequence: 0)
    var order = FieldOrder()
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(), order.accepts(field) else { return nil }
      switch (field, wireType) {
      case (1, 2):
        guard let sender = reader.string() else { return nil }
        cause.sender = sender
      case (2, 0):
        guard let seq = reader.varint() else { return nil }
        cause.sequence = seq
      default: return nil
      }
    }
    return cause
  }

  /// A `ScrollOffset`: its group and offset.
  private static func readOffset(_ reader: inout WireReader) -> (String, Point)? {
    var group = ""
    var offset = Point.zero
    var order = FieldOrder()
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(), order.accepts(field) else { return nil }
      switch (field, wireType) {
      case (1, 2):
        guard let id = reader.string() else { return nil }
        group = id
      case (2, 1):
        guard let x = reader.double() else { return nil }
        offset.x = x
      case (3, 1):
        guard let y = reader.double() else { return nil }
        offset.y = y
      default: return nil
      }
    }
    return (group, offset)
  }

  /// A `Parallax`, as `Parallax(wire:)` makes it (absent parts zero).
  private static func readParallax(_ reader: inout WireReader) -> Parallax? {
    var parallax = Parallax(
      item: "", rotateX: 0, rotateY: 0, scale: 0, translate: [],
      shadow: Parallax.Shadow(radius: 0, offsetY: 0, opacity: 0), specular: .zero)
    var order = FieldOrder()
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(), order.accepts(field, repeated: field == 5)
      else { return nil }
      switch (field, wireType) {
      case (1, 2):
        guard let item = reader.string() else { return nil }
        parallax.item = item
      case (2, 1):
        guard let value = reader.double() else { return nil }
        parallax.rotateX = value
      case (3, 1):
        guard let value = reader.double() else { return nil }
        parallax.rotateY = value
      case (4, 1):
        guard let value = reader.double() else { return nil }
        parallax.scale = value
      case (5, 2):
        guard let point = reader.nested(readPoint) else { return nil }
        parallax.translate.append(point)
      case (6, 2):
        guard let shadow = reader.nested(readShadow) else { return nil }
        parallax.shadow = shadow
      case (7, 2):
        guard let point = reader.nested(readPoint) else { return nil }
        parallax.specular = point
      default: return nil
      }
    }
    return parallax
  }

  /// A `Point`.
  private static func readPoint(_ reader: inout WireReader) -> Point? {
    var point = Point.zero
    let read = reader.doubles { field, value in
      switch field {
      case 1: point.x = value
      case 2: point.y = value
      default: return false
      }
      return true
    }
    return read ? point : nil
  }

  /// A `Shadow`.
  private static func readShadow(_ reader: inout WireReader) -> Parallax.Shadow? {
    var shadow = Parallax.Shadow(radius: 0, offsetY: 0, opacity: 0)
    let read = reader.doubles { field, value in
      switch field {
      case 1: shadow.radius = value
      case 2: shadow.offsetY = value
      case 3: shadow.opacity = value
      default: return false
      }
      return true
    }
    return read ? shadow : nil
  }

  /// An `Announcement`, as `Announcement(wire:)` makes it: parts of unknown kinds dropped, and
  /// `.some(nil)` when none is left (its spoken `text` is checked, not kept).
  private static func readAnnouncement(_ reader: inout WireReader) -> Announcement?? {
    var parts: [AnnouncementPart] = []
    var interrupt = false
    var order = FieldOrder()
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(), order.accepts(field, repeated: field == 1)
      else { return nil }
      switch (field, wireType) {
      case (1, 2):
        guard let (kind, text) = reader.nested(readPart) else { return nil }
        if let kind = AnnouncementPart.Kind(wire: kind) {
          if parts.isEmpty { parts.reserveCapacity(8) }
          parts.append(AnnouncementPart(kind, text))
        }
      case (2, 0):
        guard let value = reader.varint() else { return nil }
        interrupt = value != 0
      case (3, 2):
        guard reader.skipString() else { return nil }
      default: return nil
      }
    }
    return .some(parts.isEmpty ? nil : Announcement(parts: parts, interrupt: interrupt))
  }

  /// An `AnnouncementPart`: its wire kind and text.
  private static func readPart(_ reader: inout WireReader)
    -> (Tenfoot_V1_AnnouncementKind, String)?
  {
    var part = (Tenfoot_V1_AnnouncementKind.unspecified, "")
    var order = FieldOrder()
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(), order.accepts(field) else { return nil }
      switch (field, wireType) {
      case (1, 0):
        guard let kind = reader.enumValue(Tenfoot_V1_AnnouncementKind.self) else { return nil }
        part.0 = kind
      case (2, 2):
        guard let text = reader.string() else { return nil }
        part.1 = text
      default: return nil
      }
    }
    return part
  }
}
