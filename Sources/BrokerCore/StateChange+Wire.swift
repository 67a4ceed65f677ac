import BrokerDomain
import FocusEngine
import TenFootProtocol

extension StateChange {
  /// Writes the contents of `Tenfoot_V1_StateDelta(self)` without making it: the publication
  /// of every press, written from the domain's value into the broker's reused buffer (see
  /// `FocusEngine+WireWriter.swift`, and `DirectDeltaEncodingTests` for the bytes).
  func writeDelta(to writer: inout WireWriter) {
    if !screen.isEmpty { writer.string(1, screen) }
    if epoch != 0 { writer.uint64(2, epoch) }
    if seq != 0 { writer.uint64(3, seq) }
    if let focused { writer.string(4, focused) }
    for item in changed {
      writer.message(5) {
        if !item.id.isEmpty { $0.string(1, item.id) }
        let state = Tenfoot_V1_FocusDisplayState(item.state)
        if state != .unspecified { $0.enum(2, state) }
      }
    }
    for effect in effects { writer.message(6) { effect.write(to: &$0) } }
    writer.message(7) { cause.write(to: &$0) }
    for case .scrolled(let group, let offset) in effects {
      writer.message(8) { FocusEffect.writeScroll(group: group, offset: offset, to: &$0) }
    }
    if let parallax { writer.message(9) { parallax.write(to: &$0) } }
    // In the dictionary's own order, as SwiftProtobuf writes the map it is copied into.
    for (key, value) in text {
      writer.message(10) {
        $0.string(1, key)
        $0.string(2, value)
      }
    }
    if editingText { writer.bool(11, true) }
    if let pointer { writer.message(12) { Tenfoot_V1_PointerState(pointer).write(to: &$0) } }
    if let announcement { writer.message(20) { announcement.write(to: &$0) } }
  }
}
