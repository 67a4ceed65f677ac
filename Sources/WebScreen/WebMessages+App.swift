import FocusEngine
import Foundation
import ScreenCore

extension WebMessages {
  /// The frame message for a developer's page (`tenfoot.js`): no layout (the page made it),
  /// only what the page shows of the state. `states` lists the items that are not unfocused
  /// (a page of 10,000 items gets a few entries, not 10,000); `events` are the frame's, typed
  /// for the page's `tenfoot:*` events; `scroll` is each scrolling group's offset.
  ///
  /// Written by hand (`JSONText`), not with `JSONEncoder`: it goes out on every frame, on the
  /// way from a press to the page.
  static func appFrame(_ frame: ScreenFrame) throws -> String {
    var json = JSONText()
    try json.object { json in
      if let announcement = frame.announcement?.text {
        json.key("announcement") { $0.string(announcement) }
      }
      json.key("events") { json in
        json.array { json in
          for event in frame.events.compactMap(AppEventJSON.init) { event.write(to: &json) }
        }
      }
      if let focused = frame.focused { json.key("focused") { $0.string(focused) } }
      if let value = frame.parallax {
        try json.key("parallax") { json in
          try json.object { json in
            json.key("item") { $0.string(value.item) }
            for (name, number) in [
              ("rotateX", value.rotateX), ("rotateY", value.rotateY), ("scale", value.scale),
              ("shadowOffsetY", value.shadow.offsetY), ("shadowOpacity", value.shadow.opacity),
              ("shadowRadius", value.shadow.radius), ("specularX", value.specular.x),
              ("specularY", value.specular.y),
            ] {
              try json.key(name) { try $0.number(round(number)) }
            }
          }
        }
      }
      try json.key("scroll") { json in
        try json.object { json in
          for (group, offset) in frame.scroll.sorted(by: { $0.key < $1.key }) {
            try json.key(group) { json in
              try json.array { json in
                try json.number(round(offset.x))
                try json.number(round(offset.y))
              }
            }
          }
        }
      }
      json.key("seq") { $0.number(frame.seq) }
      json.key("states") { json in
        json.object { json in
          for (id, state) in frame.states.filter({ $0.value != .unfocused }).sorted(by: {
            $0.key < $1.key
          }) {
            json.key(id) { $0.string(state.rawValue) }
          }
        }
      }
      json.key("text") { json in
        json.object { json in
          for (id, value) in frame.text.sorted(by: { $0.key < $1.key }) {
            json.key(id) { $0.string(value) }
          }
        }
      }
    }
    return json.text
  }

  /// An error for the page (`{"message": …}`): a message it sent was refused.
  static func appError(_ message: String, number: Int) -> String {
    (try? encode(["message": message, "number": String(number)])) ?? "null"
  }

  /// One event for the page: `type` is the `tenfoot:<type>` event it dispatches.
  struct AppEventJSON {
    var type: String
    var id: String?
    var from: String?
    var to: String?
    var heading: String?
    var selected: Bool?
    var value: String?

    /// The event as an object, its keys sorted, absent fields left out.
    func write(to json: inout JSONText) {
      json.object { json in
        if let from { json.key("from") { $0.string(from) } }
        if let heading { json.key("heading") { $0.string(heading) } }
        if let id { json.key("id") { $0.string(id) } }
        if let selected { json.key("selected") { $0.bool(selected) } }
        if let to { json.key("to") { $0.string(to) } }
        json.key("type") { $0.string(type) }
        if let value { json.key("value") { $0.string(value) } }
      }
    }

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
