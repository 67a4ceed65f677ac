import FocusEngine
import Foundation
import TenFootProtocol

/// What a developer's page (`tenfoot.js`) says to the screen besides remote input: each is a
/// JSON object with a `"tenfoot"` field.
///
/// - `{"tenfoot":"layout","layout":{…}}`: the page's measured layout (the layout file format,
///   `docs/layout-format.md`), after its DOM changed; the screen patches the broker's layout
///   to it.
/// - `{"tenfoot":"reaction","seq":N,"layout":{…}|null,"focus":"id"|null}`: the page's answer
///   to the frame with state sequence `N` (an activation, back or home it dispatched): its new
///   layout, if the listeners changed the DOM, and a focus request. Sent even when empty: the
///   broker holds the remote's next presses until it hears it.
/// - `{"tenfoot":"focus","id":"…"}`: programmatic focus (`tenfoot.focus(id)`).
struct AppPageMessage: Equatable {
  /// The frame answered (nil: not an answer).
  var seq: UInt64?
  /// The page's layout, when it changed.
  var layout: Layout?
  /// An item to focus.
  var focus: String?

  /// Why a message was not understood: sent back to the page and logged.
  struct Problem: Error, CustomStringConvertible {
    let description: String
  }

  /// The message `text` holds; nil when it is not a `tenfoot` message (remote input, say).
  static func parse(_ text: String) throws(Problem) -> AppPageMessage? {
    guard text.contains("\"tenfoot\"") else { return nil }
    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    else { throw Problem(description: "the page's message is not a JSON object") }
    guard let kind = object["tenfoot"] as? String else { return nil }
    var message = AppPageMessage()
    switch kind {
    case "layout":
      guard let layout = object["layout"] else {
        throw Problem(description: "a layout message needs \"layout\"")
      }
      message.layout = try decodeLayout(layout)
    case "reaction":
      guard let seq = object["seq"] as? Double, seq >= 0, seq < 1e18, seq == seq.rounded() else {
        throw Problem(description: "a reaction needs \"seq\", the state sequence it answers")
      }
      message.seq = UInt64(seq)
      if let layout = object["layout"], !(layout is NSNull) {
        message.layout = try decodeLayout(layout)
      }
      message.focus = try focusID(object["focus"])
    case "focus":
      guard let id = try focusID(object["id"]) else {
        throw Problem(description: "a focus message needs \"id\", an item's id")
      }
      message.focus = id
    default:
      throw Problem(description: "unknown tenfoot message \"\(kind.prefix(40))\"")
    }
    return message
  }

  /// An optional item id.
  private static func focusID(_ value: Any?) throws(Problem) -> String? {
    guard let value, !(value is NSNull) else { return nil }
    guard let id = value as? String, TextRules.idProblem(id) == nil else {
      throw Problem(description: "focus wants an item id")
    }
    return id
  }

  /// The layout in `value`, decoded and validated like a layout file.
  private static func decodeLayout(_ value: Any) throws(Problem) -> Layout {
    guard JSONSerialization.isValidJSONObject(value),
      let data = try? JSONSerialization.data(withJSONObject: value)
    else { throw Problem(description: "the page's layout is not a JSON object") }
    do {
      return try LayoutFile.decode(data, file: "the page's layout")
    } catch {
      throw Problem(description: error.description)
    }
  }
}
