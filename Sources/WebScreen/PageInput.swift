import FocusEngine
import Foundation
import TenFootProtocol

/// Turns the page's remote messages into remote input for the broker.
///
/// The page sends `{"key":"right","phase":"down","t":1234.5}` for keys and
/// `{"touch":"moved","x":0.3,"y":0,"t":1240.1}` for the touch pad (x, y in [-1, 1]), and
/// `{"pointer":"moved","x":812.5,"y":440,"buttons":0,"t":1250.3}` for the mouse over the stage
/// (x, y in canvas points; deltas in points for `scroll`; the broker clamps points off the
/// canvas); `t` is the page's `performance.now()` in milliseconds. Timestamps are moved onto this process's
/// monotonic clock by the offset seen at the page's first message, so gesture speeds are the
/// page's own and network jitter does not change them.
package struct PageInput {
  /// Why a message was not turned into an event.
  package struct Problem: Error, CustomStringConvertible {
    package let description: String
  }

  /// A reader of one page's messages (its clock offset is set by its first).
  package init() {}

  private var offset: Int64?
  private var last: UInt64 = 0

  /// The remote input a page message stands for.
  package mutating func event(from text: String) throws(Problem) -> RemoteInput {
    guard let data = text.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { throw Problem(description: "not a JSON object") }
    let timestamp = stamp(object["t"] as? Double)
    if let name = object["key"] as? String {
      guard let button = RemoteButton(name: name) else {
        throw Problem(description: "unknown key \(name)")
      }
      guard let phase = (object["phase"] as? String).flatMap(ButtonPhase.init(rawValue:)) else {
        throw Problem(description: "key phase must be down, up or held")
      }
      return .button(button, phase, at: timestamp)
    }
    if let name = object["touch"] as? String {
      let phase: TouchRecognizer.Phase
      switch name {
      case "began": phase = .began
      case "moved": phase = .moved
      case "ended": phase = .ended
      case "cancelled": phase = .cancelled
      default: throw Problem(description: "touch phase must be began, moved, ended or cancelled")
      }
      guard let x = object["x"] as? Double, let y = object["y"] as? Double, x.isFinite, y.isFinite
      else { throw Problem(description: "touch needs numbers x and y") }
      return .touch(phase, x: min(1, max(-1, x)), y: min(1, max(-1, y)), at: timestamp)
    }
    if let phase = object["pointer"] as? String {
      return .pointer(try Self.pointer(phase, object, at: timestamp))
    }
    if let value = object["text"] as? String {
      return .text(.set(value))
    }
    throw Problem(description: "expected key, touch, pointer or text")
  }

  /// A pointer sample from the page: an absolute position in canvas points (deltas for
  /// `scroll`), the buttons held as the DOM's `buttons` bit mask (bit 0 the primary button,
  /// as the protocol's).
  private static func pointer(_ name: String, _ object: [String: Any], at timestamp: UInt64)
    throws(Problem) -> PointerEvent
  {
    let phase: PointerPhase
    switch name {
    case "moved": phase = .moved
    case "down": phase = .down
    case "up": phase = .up
    case "cancelled": phase = .cancelled
    case "scroll": phase = .scroll
    default:
      throw Problem(description: "pointer phase must be moved, down, up, cancelled or scroll")
    }
    guard let x = object["x"] as? Double, let y = object["y"] as? Double, x.isFinite, y.isFinite
    else { throw Problem(description: "pointer needs finite numbers x and y") }
    let buttons = object["buttons"] as? Double ?? 0
    guard buttons.isFinite, buttons >= 0, buttons <= Double(UInt32.max) else {
      throw Problem(description: "pointer buttons must be a bit mask")
    }
    return PointerEvent(phase, x: x, y: y, buttons: UInt32(buttons), at: timestamp)
  }

  /// The page time `milliseconds` on this process's clock, never going backwards.
  private mutating func stamp(_ milliseconds: Double?) -> UInt64 {
    let now = MonotonicClock.nanoseconds()
    guard let milliseconds, milliseconds.isFinite, milliseconds >= 0, milliseconds < 1e12 else {
      last = max(last, now)
      return last
    }
    let pageNanoseconds = Int64(milliseconds * 1_000_000)
    let offset = self.offset ?? (Int64(now) - pageNanoseconds)
    self.offset = offset
    let mapped = UInt64(max(0, pageNanoseconds + offset))
    last = max(last, mapped)
    return last
  }
}
