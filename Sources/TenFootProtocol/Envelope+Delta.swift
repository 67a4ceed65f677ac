/// The message every screen receives for every press, an `Envelope` whose body is a
/// `StateDelta`, decoded by hand when its bytes have the shape the broker writes
/// (`PressMessages+Wire.swift`, `FocusEngine+WireWriter.swift`): each field in field-number
/// order with its declared wire type, a repeated field's entries one after another, nothing
/// unknown, and effects of the kinds a move makes. Anything else (a pointer, a rarer effect, a
/// repeated singular field, invalid UTF-8, an enum value past `Int32.max`) is left to
/// SwiftProtobuf, so the result is always the message SwiftProtobuf decodes:
/// `DeltaDecodingTests` compares the two on random and mutated frames, and the `fuzz-envelope`
/// target on whatever the fuzzer makes.
///
/// Why by hand: a screen decodes one per press before it can show it, on the path the press
/// latency measures, and SwiftProtobuf's generic decoder cost about 47,600 instructions for a
/// move's 300 bytes (callgrind, the latency bench's screen side), more than the broker spends
/// serving the press.
extension Tenfoot_V1_Envelope {
  /// The field number of the `delta` body (a `StateDelta`) in `Envelope`.
  public static let deltaField = 16

  /// The envelope `bytes` hold when they are a delta in the broker's shape; nil otherwise
  /// (`decode(_:)` then asks SwiftProtobuf).
  public static func decodedDelta(_ bytes: [UInt8]) -> Tenfoot_V1_Envelope? {
    decodedByHand(bytes, bodyField: deltaField) { reader in
      Tenfoot_V1_StateDelta.read(&reader).map { .delta($0) }
    }
  }
}

extension Tenfoot_V1_StateDelta {
  /// The `StateDelta` `reader` holds in the broker's shape; nil otherwise.
  static func read(_ reader: inout WireReader) -> Tenfoot_V1_StateDelta? {
    var delta = Tenfoot_V1_StateDelta()
    var order = FieldOrder()
    // The repeated fields are gathered here and set once: appending through the message
    // grows each array one entry at a time (a move changes two items).
    var changed: [Tenfoot_V1_ItemState] = []
    var effects: [Tenfoot_V1_FocusEffect] = []
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
        guard let item = reader.nested(Tenfoot_V1_ItemState.read) else { return nil }
        if changed.isEmpty { changed.reserveCapacity(2) }
        changed.append(item)
      case (6, 2):
        guard let effect = reader.nested(Tenfoot_V1_FocusEffect.read) else { return nil }
        effects.append(effect)
      case (7, 2):
        guard let cause = reader.nested(Tenfoot_V1_Cause.read) else { return nil }
        delta.cause = cause
      case (8, 2):
        guard let offset = reader.nested(Tenfoot_V1_ScrollOffset.read) else { return nil }
        delta.scroll.append(offset)
      case (9, 2):
        guard let parallax = reader.nested(Tenfoot_V1_Parallax.read) else { return nil }
        delta.parallax = parallax
      case (10, 2):
        guard let (key, value) = reader.nested({ $0.stringPair() }) else { return nil }
        delta.text[key] = value
      case (11, 0):
        guard let editing = reader.varint() else { return nil }
        delta.editingText = editing != 0
      case (20, 2):
        guard let announcement = reader.nested(Tenfoot_V1_Announcement.read) else { return nil }
        delta.announcement = announcement
      default: return nil
      }
    }
    if !changed.isEmpty { delta.changed = changed }
    if !effects.isEmpty { delta.effects = effects }
    return delta
  }
}

extension Tenfoot_V1_FocusEffect {
  /// The effect `reader` holds when it is of a kind a move makes; nil otherwise.
  static func read(_ reader: inout WireReader) -> Tenfoot_V1_FocusEffect? {
    guard let (field, wireType) = reader.tag() else { return nil }
    var effect = Tenfoot_V1_FocusEffect()
    switch (field, wireType) {
    case (1, 2):
      guard let update = reader.nested(Tenfoot_V1_FocusUpdate.read) else { return nil }
      effect.kind = .focusChanged(update)
    case (2, 0):
      guard let heading = reader.enumValue(Tenfoot_V1_Heading.self) else { return nil }
      effect.kind = .movementFailed(heading)
    case (3, 2):
      guard let id = reader.string() else { return nil }
      effect.kind = .highlighted(id)
    case (4, 2):
      guard let id = reader.string() else { return nil }
      effect.kind = .activated(id)
    case (6, 2):
      guard let offset = reader.nested(Tenfoot_V1_ScrollOffset.read) else { return nil }
      effect.kind = .scrolled(offset)
    default: return nil
    }
    // One kind: a second field would be another oneof case (SwiftProtobuf keeps the last).
    return reader.atEnd ? effect : nil
  }
}

extension Tenfoot_V1_FocusUpdate {
  static func read(_ reader: inout WireReader) -> Tenfoot_V1_FocusUpdate? {
    var update = Tenfoot_V1_FocusUpdate()
    var order = FieldOrder()
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(), order.accepts(field) else { return nil }
      switch (field, wireType) {
      case (1, 2):
        guard let previous = reader.string() else { return nil }
        update.previous = previous
      case (2, 2):
        guard let next = reader.string() else { return nil }
        update.next = next
      case (3, 0):
        guard let heading = reader.enumValue(Tenfoot_V1_Heading.self) else { return nil }
        update.heading = heading
      case (4, 2):
        guard let cause = reader.nested(Tenfoot_V1_Cause.read) else { return nil }
        update.cause = cause
      default: return nil
      }
    }
    return update
  }
}

extension Tenfoot_V1_Cause {
  static func read(_ reader: inout WireReader) -> Tenfoot_V1_Cause? {
    var cause = Tenfoot_V1_Cause()
    var order = FieldOrder()
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(), order.accepts(field) else { return nil }
      switch (field, wireType) {
      case (1, 2):
        guard let sender = reader.string() else { return nil }
        cause.sender = sender
      case (2, 0):
        guard let seq = reader.varint() else { return nil }
        cause.seq = seq
      default: return nil
      }
    }
    return cause
  }
}

extension Tenfoot_V1_ItemState {
  static func read(_ reader: inout WireReader) -> Tenfoot_V1_ItemState? {
    var item = Tenfoot_V1_ItemState()
    var order = FieldOrder()
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(), order.accepts(field) else { return nil }
      switch (field, wireType) {
      case (1, 2):
        guard let id = reader.string() else { return nil }
        item.id = id
      case (2, 0):
        guard let state = reader.enumValue(Tenfoot_V1_FocusDisplayState.self) else { return nil }
        item.state = state
      default: return nil
      }
    }
    return item
  }
}

extension Tenfoot_V1_ScrollOffset {
  static func read(_ reader: inout WireReader) -> Tenfoot_V1_ScrollOffset? {
    var offset = Tenfoot_V1_ScrollOffset()
    var order = FieldOrder()
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(), order.accepts(field) else { return nil }
      switch (field, wireType) {
      case (1, 2):
        guard let group = reader.string() else { return nil }
        offset.group = group
      case (2, 1):
        guard let x = reader.double() else { return nil }
        offset.x = x
      case (3, 1):
        guard let y = reader.double() else { return nil }
        offset.y = y
      default: return nil
      }
    }
    return offset
  }
}

extension Tenfoot_V1_Parallax {
  static func read(_ reader: inout WireReader) -> Tenfoot_V1_Parallax? {
    var parallax = Tenfoot_V1_Parallax()
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
        guard let point = reader.nested(Tenfoot_V1_Point.read) else { return nil }
        parallax.translate.append(point)
      case (6, 2):
        guard let shadow = reader.nested(Tenfoot_V1_Shadow.read) else { return nil }
        parallax.shadow = shadow
      case (7, 2):
        guard let point = reader.nested(Tenfoot_V1_Point.read) else { return nil }
        parallax.specular = point
      default: return nil
      }
    }
    return parallax
  }
}

extension Tenfoot_V1_Point {
  static func read(_ reader: inout WireReader) -> Tenfoot_V1_Point? {
    var point = Tenfoot_V1_Point()
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
}

extension Tenfoot_V1_Shadow {
  static func read(_ reader: inout WireReader) -> Tenfoot_V1_Shadow? {
    var shadow = Tenfoot_V1_Shadow()
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
}

extension Tenfoot_V1_Announcement {
  static func read(_ reader: inout WireReader) -> Tenfoot_V1_Announcement? {
    var announcement = Tenfoot_V1_Announcement()
    var order = FieldOrder()
    // Set once at the end, room for a move's parts made at the first (see `StateDelta.read`).
    var parts: [Tenfoot_V1_AnnouncementPart] = []
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(), order.accepts(field, repeated: field == 1)
      else { return nil }
      switch (field, wireType) {
      case (1, 2):
        guard let part = reader.nested(Tenfoot_V1_AnnouncementPart.read) else { return nil }
        if parts.isEmpty { parts.reserveCapacity(8) }
        parts.append(part)
      case (2, 0):
        guard let interrupt = reader.varint() else { return nil }
        announcement.interrupt = interrupt != 0
      case (3, 2):
        guard let text = reader.string() else { return nil }
        announcement.text = text
      default: return nil
      }
    }
    if !parts.isEmpty { announcement.parts = parts }
    return announcement
  }
}

extension Tenfoot_V1_AnnouncementPart {
  static func read(_ reader: inout WireReader) -> Tenfoot_V1_AnnouncementPart? {
    var part = Tenfoot_V1_AnnouncementPart()
    var order = FieldOrder()
    while !reader.atEnd {
      guard let (field, wireType) = reader.tag(), order.accepts(field) else { return nil }
      switch (field, wireType) {
      case (1, 0):
        guard let kind = reader.enumValue(Tenfoot_V1_AnnouncementKind.self) else { return nil }
        part.kind = kind
      case (2, 2):
        guard let text = reader.string() else { return nil }
        part.text = text
      default: return nil
      }
    }
    return part
  }
}
