import FocusEngine

// The engine values a press publishes, written straight into a `WireWriter` as the messages
// their `Tenfoot_V1_…(_:)` initialisers would make, without making them: building a
// `StateDelta` from a step (its storage, the nested messages, the announcement's parts) cost the
// broker about as much as encoding it by hand (`PressMessages+Wire.swift`). Each function writes
// a message's contents (its caller writes the tag and length), field by field as the generated
// `traverse` does; the effects a press rarely makes are made as messages and written by
// `PressMessages+Wire`. `DirectDeltaEncodingTests` pins every function to the bytes
// SwiftProtobuf writes for the message the initialiser makes.

extension FocusEffect {
  /// Writes the contents of `Tenfoot_V1_FocusEffect(self)`.
  public func write(to writer: inout WireWriter) {
    switch self {
    case .focusChanged(let context): writer.message(1) { context.write(to: &$0) }
    case .movementFailed(let heading): writer.enum(2, Tenfoot_V1_Heading(heading))
    case .highlighted(let id): writer.string(3, id)
    case .activated(let id): writer.string(4, id)
    case .selectionChanged(let id, let selected):
      writer.message(5) {
        if !id.isEmpty { $0.string(1, id) }
        if selected { $0.bool(2, true) }
      }
    case .scrolled(let group, let offset):
      writer.message(6) { Self.writeScroll(group: group, offset: offset, to: &$0) }
    default: Tenfoot_V1_FocusEffect(self).write(to: &writer)
    }
  }

  /// Writes the contents of `Tenfoot_V1_ScrollOffset(group:offset:)`.
  public static func writeScroll(group: String, offset: Point, to writer: inout WireWriter) {
    if !group.isEmpty { writer.string(1, group) }
    if offset.x.bitPattern != 0 { writer.double(2, offset.x) }
    if offset.y.bitPattern != 0 { writer.double(3, offset.y) }
  }
}

extension FocusUpdateContext {
  /// Writes the contents of the `Tenfoot_V1_FocusUpdate` a `focusChanged` effect carries.
  func write(to writer: inout WireWriter) {
    if let previous { writer.string(1, previous) }
    if let next { writer.string(2, next) }
    let heading = Tenfoot_V1_Heading(self.heading)
    if heading != .unspecified { writer.enum(3, heading) }
    if let cause { writer.message(4) { cause.write(to: &$0) } }
  }
}

extension FocusCause {
  /// Writes the contents of the `Tenfoot_V1_Cause` naming this request.
  public func write(to writer: inout WireWriter) {
    if !sender.isEmpty { writer.string(1, sender) }
    if sequence != 0 { writer.uint64(2, sequence) }
  }
}

extension Parallax {
  /// Writes the contents of `Tenfoot_V1_Parallax(self)` (its shadow and specular are always
  /// set there, so always written).
  public func write(to writer: inout WireWriter) {
    if !item.isEmpty { writer.string(1, item) }
    if rotateX.bitPattern != 0 { writer.double(2, rotateX) }
    if rotateY.bitPattern != 0 { writer.double(3, rotateY) }
    if scale.bitPattern != 0 { writer.double(4, scale) }
    for point in translate { writer.message(5) { point.write(to: &$0) } }
    writer.message(6) {
      if shadow.radius.bitPattern != 0 { $0.double(1, shadow.radius) }
      if shadow.offsetY.bitPattern != 0 { $0.double(2, shadow.offsetY) }
      if shadow.opacity.bitPattern != 0 { $0.double(3, shadow.opacity) }
    }
    writer.message(7) { specular.write(to: &$0) }
  }
}

extension Point {
  /// Writes the contents of a `Tenfoot_V1_Point`.
  func write(to writer: inout WireWriter) {
    if x.bitPattern != 0 { writer.double(1, x) }
    if y.bitPattern != 0 { writer.double(2, y) }
  }
}

extension Announcement {
  /// Writes the contents of `Tenfoot_V1_Announcement(self)`.
  public func write(to writer: inout WireWriter) {
    for part in parts {
      writer.message(1) {
        let kind = Tenfoot_V1_AnnouncementKind(part.kind)
        if kind != .unspecified { $0.enum(1, kind) }
        if !part.text.isEmpty { $0.string(2, part.text) }
      }
    }
    if interrupt { writer.bool(2, true) }
    writeText(to: &writer)
  }

  /// Writes field 3, `text`, from the parts as the getter joins them, without joining them:
  /// its length first (the parts' and their separators'), then each separator and part.
  private func writeText(to writer: inout WireWriter) {
    var length = 0
    for part in parts {
      let count = part.text.utf8.count
      if count == 0 { continue }
      if length != 0 { length += 2 }  // ", " or ". ", as the getter puts between parts.
      length += count
    }
    guard length != 0 else { return }
    writer.lengthDelimited(3, length: length)
    var first = true
    for part in parts {
      let count = part.text.utf8.count
      if count == 0 { continue }
      if !first { writer.append(part.kind == .hint ? UInt8(ascii: ".") : UInt8(ascii: ","), 0x20) }
      first = false
      writer.append(utf8: part.text, length: count)
    }
  }
}
