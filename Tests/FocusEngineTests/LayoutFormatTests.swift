import Foundation
import Testing

@testable import FocusEngine

@Suite("Layout JSON format and validation")
struct LayoutFormatTests {
  func decode(_ json: String) throws -> Layout {
    try JSONDecoder().decode(Layout.self, from: Data(json.utf8))
  }

  func decodingMessage(_ json: String) -> String? {
    do {
      _ = try decode(json)
      return nil
    } catch DecodingError.dataCorrupted(let context) {
      let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
      return path.joined() + ": " + context.debugDescription
    } catch {
      return "\(error)"
    }
  }

  @Test("the documented example decodes with defaults filled in")
  func example() throws {
    let layout = try decode(
      """
      { "canvas": {"width": 1280, "height": 720},
        "items": [ {"id": "a", "title": "Alpha", "frame": [100, 100, 300, 200]},
                   {"id": "b", "frame": [500, 100, 300, 200], "available": false,
                    "toggles": false, "selected": true} ],
        "groups": [ {"id": "row1", "items": ["a", "b"]} ],
        "initialFocus": "a" }
      """)
    #expect(layout.canvas == Size(width: 1280, height: 720))
    #expect(
      layout.items[0]
        == Item(id: "a", title: "Alpha", frame: Rect(x: 100, y: 100, width: 300, height: 200)))
    #expect(layout.items[1].available == false)
    #expect(layout.items[1].toggles == false)
    #expect(layout.items[1].selected == true)
    #expect(layout.groups == [Group(id: "row1", items: ["a", "b"])])
    #expect(layout.initialFocus == "a")
    try layout.validate()
  }

  @Test("a missing canvas is the 1920×1080 TV canvas")
  func defaultCanvas() throws {
    #expect(try decode(#"{"items": []}"#).canvas == .tv)
  }

  @Test("unknown fields are errors that name the path and the allowed fields")
  func unknownFields() {
    let message = decodingMessage(#"{"items": [{"id": "a", "frame": [0,0,1,1], "colour": "red"}]}"#)
    #expect(
      message
        == #".items[0]: unknown field "colour" (allowed: id, title, frame, available, toggles, selected, priority, kind, layers, value, focusEffect, cornerRadius, pointerEffect, pointerMagnetism, pointerShape, accessibilityLabel, accessibilityHint, accessibilityValue, accessibilityTraits, subtitle, body, badge, image, accent)"#
    )
    let top = decodingMessage(#"{"items": [], "focus": "a", "extra": 1}"#)
    #expect(top?.contains(#"unknown fields "extra", "focus""#) == true)
  }

  @Test(
    "frames must be exactly four numbers",
    arguments: ["[0, 0, 1]", "[0, 0, 1, 1, 1]", "[]"])
  func frameShape(frame: String) {
    let message = decodingMessage(#"{"items": [{"id": "a", "frame": \#(frame)}]}"#)
    #expect(message?.contains("expected [x, y, width, height]") == true, "\(message ?? "nil")")
  }

  @Test(
    "validation names the path and the reason",
    arguments: [
      (Layout(canvas: Size(width: 0, height: 10), items: []), "canvas.width"),
      (
        Layout(items: [item("a", 0, 0, 1, 1), item("a", 5, 0, 1, 1)]),
        #"items[1].id: duplicate id "a" (first used by items[0])"#
      ),
      (Layout(items: [item("", 0, 0, 1, 1)]), "items[0].id: id is empty"),
      (Layout(items: [item("a b", 0, 0, 1, 1)]), "items[0].id: id contains"),
      (Layout(items: [item("a", 0, 0, -1, 1)]), "items[0].frame: width must not be negative"),
      (Layout(items: [item("a", .nan, 0, 1, 1)]), "items[0].frame: x must be finite"),
      (
        Layout(
          items: [item("a", 0, 0, 1, 1)],
          groups: [Group(id: "g", groups: [Group(id: "h", items: ["zz"])])]),
        #"groups[0].groups[0].items[0]: unknown item "zz""#
      ),
      (
        Layout(
          items: [item("a", 0, 0, 1, 1)],
          groups: [Group(id: "g", items: ["a"]), Group(id: "h", items: ["a"])]),
        #"groups[1].items[0]: item "a" is already in group "g""#
      ),
      (
        Layout(items: [item("a", 0, 0, 1, 1)], groups: [Group(id: "g"), Group(id: "g")]),
        #"groups[1].id: duplicate group id "g""#
      ),
      (
        Layout(items: [item("a", 0, 0, 1, 1)], initialFocus: "b"),
        #"initialFocus: unknown item "b""#
      ),
    ])
  func validation(layout: Layout, expected: String) {
    #expect(throws: LayoutError.self) { try layout.validate() }
    do {
      try layout.validate()
    } catch {
      #expect(error.description.hasPrefix(expected), "\(error.description)")
    }
  }

  @Test("ids longer than 128 characters are refused; 128 is fine")
  func idLength() throws {
    try Layout(items: [item(String(repeating: "x", count: 128), 0, 0, 1, 1)]).validate()
    #expect(throws: LayoutError.self) {
      try Layout(items: [item(String(repeating: "x", count: 129), 0, 0, 1, 1)]).validate()
    }
  }

  @Test("FocusState refuses an invalid layout with the same error")
  func stateValidates() {
    #expect(throws: LayoutError(path: "initialFocus", reason: #"unknown item "b""#)) {
      try FocusState(layout: Layout(items: [item("a", 0, 0, 1, 1)], initialFocus: "b"))
    }
  }
}
