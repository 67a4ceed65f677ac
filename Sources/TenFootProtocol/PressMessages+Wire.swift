import SwiftProtobuf

// The messages every press sends, `Input` with a `KeyEvent` (the remote's request), `Ack` (the
// reply) and `StateDelta` (the publication), and the messages nested in them, encoded by hand
// into a `WireWriter`.
//
// Why by hand: this is the broker's hot path, and SwiftProtobuf's generic visitor sizes then
// writes each nested message once per level above it, through unspecialised generics and
// runtime metadata lookups. Measured (callgrind, `scripts/bench-instructions`): publishing a
// press's delta cost about 39,000 instructions with it and 17,700 by hand, replying with the
// ack 8,800 and 5,100, sending included. Each function below mirrors its message's generated
// `traverse` (tenfoot_v1_tenfoot.pb.swift): fields in field-number order, proto3 scalars
// omitted at their default (a double by its bit pattern, so -0.0 is written), `optional`
// fields and oneof cases written whenever set, map entries with key and value always written,
// unknown fields last. `PressEncodingTests` pins every function to SwiftProtobuf's
// `serializedBytes()` byte for byte, and fails when one of these messages gains a field.

extension Tenfoot_V1_Ack {
  /// Writes this message's encoding (`serializedBytes()`'s bytes).
  public func write(to writer: inout WireWriter) {
    if stateSeq != 0 { writer.uint64(1, stateSeq) }
    if hasFocused { writer.string(2, focused) }
    for effect in effects { writer.message(3) { effect.write(to: &$0) } }
    if !screenID.isEmpty { writer.string(4, screenID) }
    if editingText { writer.bool(5, true) }
    if app { writer.bool(6, true) }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_Input {
  /// Whether `write(to:)` writes this input: its event is a key (the other events are left to
  /// SwiftProtobuf).
  var isKeyInput: Bool {
    if case .key = event { return true }
    return false
  }

  /// Writes this message's encoding (`serializedBytes()`'s bytes) when `isKeyInput`.
  func write(to writer: inout WireWriter) {
    if !screenID.isEmpty { writer.string(1, screenID) }
    if case .key(let key) = event { writer.message(2) { key.write(to: &$0) } }
    if !pressID.isEmpty { writer.string(5, pressID) }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_KeyEvent {
  func write(to writer: inout WireWriter) {
    if key != .unspecified { writer.enum(1, key) }
    if phase != .unspecified { writer.enum(2, phase) }
    if timestampNs != 0 { writer.uint64(3, timestampNs) }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_StateDelta {
  /// Writes this message's encoding (`serializedBytes()`'s bytes).
  public func write(to writer: inout WireWriter) {
    if !screenID.isEmpty { writer.string(1, screenID) }
    if epoch != 0 { writer.uint64(2, epoch) }
    if seq != 0 { writer.uint64(3, seq) }
    if hasFocused { writer.string(4, focused) }
    for item in changed { writer.message(5) { item.write(to: &$0) } }
    for effect in effects { writer.message(6) { effect.write(to: &$0) } }
    if hasCause { writer.message(7) { cause.write(to: &$0) } }
    for offset in scroll { writer.message(8) { offset.write(to: &$0) } }
    if hasParallax { writer.message(9) { parallax.write(to: &$0) } }
    // SwiftProtobuf writes a map in the dictionary's own order (no deterministic ordering).
    for (key, value) in text {
      writer.message(10) {
        $0.string(1, key)
        $0.string(2, value)
      }
    }
    if editingText { writer.bool(11, true) }
    if hasPointer { writer.message(12) { pointer.write(to: &$0) } }
    if hasAnnouncement { writer.message(20) { announcement.write(to: &$0) } }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_FocusEffect {
  /// Writes this message's encoding (`serializedBytes()`'s bytes).
  public func write(to writer: inout WireWriter) {
    switch kind {
    case .focusChanged(let update): writer.message(1) { update.write(to: &$0) }
    case .movementFailed(let heading): writer.enum(2, heading)
    case .highlighted(let id): writer.string(3, id)
    case .activated(let id): writer.string(4, id)
    case .selectionChanged(let change): writer.message(5) { change.write(to: &$0) }
    case .scrolled(let offset): writer.message(6) { offset.write(to: &$0) }
    case .focusRequestDenied(let denial): writer.message(7) { denial.write(to: &$0) }
    case .layoutRejected(let reason): writer.string(8, reason)
    case .textChanged(let change): writer.message(9) { change.write(to: &$0) }
    case .back(let back): writer.bool(10, back)
    case .home(let home): writer.bool(11, home)
    case .playPause(let id): writer.string(12, id)
    case .contextMenu(let id): writer.string(13, id)
    case .doubleTap(let key): writer.enum(14, key)
    case .itemsInView(let window): writer.message(15) { window.write(to: &$0) }
    case nil: break
    }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_FocusUpdate {
  func write(to writer: inout WireWriter) {
    if hasPrevious { writer.string(1, previous) }
    if hasNext { writer.string(2, next) }
    if heading != .unspecified { writer.enum(3, heading) }
    if hasCause { writer.message(4) { cause.write(to: &$0) } }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_Cause {
  func write(to writer: inout WireWriter) {
    if !sender.isEmpty { writer.string(1, sender) }
    if seq != 0 { writer.uint64(2, seq) }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_ItemState {
  func write(to writer: inout WireWriter) {
    if !id.isEmpty { writer.string(1, id) }
    if state != .unspecified { writer.enum(2, state) }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_ScrollOffset {
  func write(to writer: inout WireWriter) {
    if !group.isEmpty { writer.string(1, group) }
    if x.bitPattern != 0 { writer.double(2, x) }
    if y.bitPattern != 0 { writer.double(3, y) }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_SelectionChange {
  func write(to writer: inout WireWriter) {
    if !id.isEmpty { writer.string(1, id) }
    if selected { writer.bool(2, true) }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_FocusDenial {
  func write(to writer: inout WireWriter) {
    if reason != .unspecified { writer.enum(1, reason) }
    if !target.isEmpty { writer.string(2, target) }
    if !message.isEmpty { writer.string(3, message) }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_TextChange {
  func write(to writer: inout WireWriter) {
    if !id.isEmpty { writer.string(1, id) }
    if !value.isEmpty { writer.string(2, value) }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_ItemsInView {
  func write(to writer: inout WireWriter) {
    if !group.isEmpty { writer.string(1, group) }
    if start != 0 { writer.uint64(2, start) }
    if end != 0 { writer.uint64(3, end) }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_Parallax {
  func write(to writer: inout WireWriter) {
    if !item.isEmpty { writer.string(1, item) }
    if rotateX.bitPattern != 0 { writer.double(2, rotateX) }
    if rotateY.bitPattern != 0 { writer.double(3, rotateY) }
    if scale.bitPattern != 0 { writer.double(4, scale) }
    for point in translate { writer.message(5) { point.write(to: &$0) } }
    if hasShadow { writer.message(6) { shadow.write(to: &$0) } }
    if hasSpecular { writer.message(7) { specular.write(to: &$0) } }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_Point {
  func write(to writer: inout WireWriter) {
    if x.bitPattern != 0 { writer.double(1, x) }
    if y.bitPattern != 0 { writer.double(2, y) }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_Shadow {
  func write(to writer: inout WireWriter) {
    if radius.bitPattern != 0 { writer.double(1, radius) }
    if offsetY.bitPattern != 0 { writer.double(2, offsetY) }
    if opacity.bitPattern != 0 { writer.double(3, opacity) }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_PointerState {
  /// Writes this message's encoding (`serializedBytes()`'s bytes).
  public func write(to writer: inout WireWriter) {
    if x.bitPattern != 0 { writer.double(1, x) }
    if y.bitPattern != 0 { writer.double(2, y) }
    if visible { writer.bool(3, true) }
    if !shape.isEmpty { writer.string(4, shape) }
    if effect != .unspecified { writer.enum(5, effect) }
    if !target.isEmpty { writer.string(6, target) }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_Announcement {
  func write(to writer: inout WireWriter) {
    for part in parts { writer.message(1) { part.write(to: &$0) } }
    if interrupt { writer.bool(2, true) }
    if !text.isEmpty { writer.string(3, text) }
    writer.unknown(unknownFields)
  }
}

extension Tenfoot_V1_AnnouncementPart {
  func write(to writer: inout WireWriter) {
    if kind != .unspecified { writer.enum(1, kind) }
    if !text.isEmpty { writer.string(2, text) }
    writer.unknown(unknownFields)
  }
}
