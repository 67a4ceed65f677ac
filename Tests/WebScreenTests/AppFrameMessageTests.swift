import FocusEngine
import Foundation
import ScreenCore
import Testing

@testable import WebScreen

/// The frame message a developer's page gets, written by hand (`JSONText`): what
/// `JSONSerialization` reads back from it is the frame.
@Suite("The app page's frame message")
struct AppFrameMessageTests {
  @Test(
    "every field of a frame reads back, text with quotes, control characters and non-ASCII (with and without escapes)"
  )
  func frame() throws {
    let tricky = "say \"hi\"\\ /ok\n\ttab \u{1}\u{1F} é 🎬"
    var frame = ScreenFrame(
      screen: "main", epoch: 1, seq: 42, layout: Layout(items: []), focused: "b\"1",
      states: ["b\"1": .focused, "a": .unfocused, "c": .selected, "café 🎬": .highlighted])
    frame.parallax = Parallax(
      item: "b\"1", rotateX: -1.23456, rotateY: 0, scale: 1.1,
      translate: [], shadow: .init(radius: 24, offsetY: 12, opacity: 0.5),
      specular: Point(x: 0.25, y: 1e-7))
    frame.scroll = ["row": Point(x: 320, y: 0.5)]
    frame.text = ["field": tricky]
    frame.announcement = Announcement(parts: [.init(.label, tricky)], interrupt: true)
    frame.events = [
      .selectionChanged(id: "c", selected: true), .textChanged(id: "field", value: tricky), .back,
      .highlighted("a"),
    ]
    let json = try WebMessages.appFrame(frame)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary, "\(json)")
    let expected: NSDictionary = [
      "announcement": tricky,
      "events": [
        ["id": "c", "selected": true, "type": "selection"],
        ["id": "field", "type": "text", "value": tricky], ["type": "back"],
      ],
      "focused": "b\"1",
      "parallax": [
        "item": "b\"1", "rotateX": -1.235, "rotateY": 0, "scale": 1.1, "shadowOffsetY": 12,
        "shadowOpacity": 0.5, "shadowRadius": 24, "specularX": 0.25, "specularY": 0,
      ],
      "scroll": ["row": [320, 0.5]],
      "seq": 42,
      "states": ["b\"1": "focused", "c": "selected", "café 🎬": "highlighted"],
      "text": ["field": tricky],
    ]
    #expect(object == expected, "\(json)")
    #expect(!json.contains("\\/"), "slashes stay as they are")
  }

  @Test("a frame with nothing optional leaves those keys out")
  func bare() throws {
    let frame = ScreenFrame(
      screen: "main", epoch: 1, seq: 7, layout: Layout(items: []), focused: nil, states: [:])
    #expect(
      try WebMessages.appFrame(frame)
        == #"{"events":[],"scroll":{},"seq":7,"states":{},"text":{}}"#)
  }
}
