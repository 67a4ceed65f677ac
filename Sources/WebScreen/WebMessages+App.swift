import FocusEngine
import Foundation
import ScreenCore

extension WebMessages {
  /// The frame message for a developer's page (`tenfoot.js`): no layout (the page made it),
  /// only what the page shows of the state. `states` lists the items that are not unfocused
  /// (a page of 10,000 items gets a few entries, not 10,000); `events` are the frame's, typed
  /// for the page's `tenfoot:*` events; `scroll` is each scrolling group's offset.
  static func appFrame(_ frame: ScreenFrame) throws -> String {
    let parallax = frame.parallax.map { value in
      AppParallaxJSON(
        item: value.item, rotateX: round(value.rotateX), rotateY: round(value.rotateY),
        scale: round(value.scale), shadowRadius: round(value.shadow.radius),
        shadowOffsetY: round(value.shadow.offsetY), shadowOpacity: round(value.shadow.opacity),
        specularX: round(value.specular.x), specularY: round(value.specular.y))
    }
    return try encode(
      AppFrameJSON(
        seq: frame.seq, focused: frame.focused,
        states: frame.states.filter { $0.value != .unfocused }.mapValues(\.rawValue),
        events: frame.events.compactMap(AppEventJSON.init),
        parallax: parallax,
        scroll: frame.scroll.mapValues { [round($0.x), round($0.y)] },
        announcement: frame.announcement?.text, text: frame.text))
  }

  /// An error for the page (`{"message": …}`): a message it sent was refused.
  static func appError(_ message: String, number: Int) -> String {
    (try? encode(["message": message, "number": String(number)])) ?? "null"
  }

  struct AppFrameJSON: Encodable {
    let seq: UInt64
    let focused: String?
    let states: [String: String]
    let events: [AppEventJSON]
    let parallax: AppParallaxJSON?
    let scroll: [String: [Double]]
    let announcement: String?
    let text: [String: String]
  }

  struct AppParallaxJSON: Encodable {
    let item: String
    let rotateX: Double
    let rotateY: Double
    let scale: Double
    let shadowRadius: Double
    let shadowOffsetY: Double
    let shadowOpacity: Double
    let specularX: Double
    let specularY: Double
  }

  /// One event for the page: `type` is the `tenfoot:<type>` event it dispatches.
  struct AppEventJSON: Encodable {
    var type: String
    var id: String?
    var from: String?
    var to: String?
    var heading: String?
    var selected: Bool?
    var value: String?

    init?(_ effect: FocusEffect) {
      switch effect {
      case .focusChanged(let context):
        type = "focus"
        from = context.previous
        to = context.next
        heading = context.heading.rawValue
      case .activated(let id): (type, self.id) = ("activated", id)
      case .back: type = "back"
      case .home: type = "home"
      case .playPause(let id): (type, self.id) = ("playpause", id)
      case .contextMenu(let id): (type, self.id) = ("contextmenu", id)
      case .selectionChanged(let id, let selected):
        (type, self.id, self.selected) = ("selection", id, selected)
      case .textChanged(let id, let value): (type, self.id, self.value) = ("text", id, value)
      case .movementFailed(let heading): (type, self.heading) = ("bump", heading.rawValue)
      case .focusRequestDenied(let error): (type, value) = ("focusdenied", "\(error)")
      case .highlighted, .scrolled, .layoutRejected, .textRejected, .doubleTap, .itemsInView:
        return nil
      }
    }
  }
}
