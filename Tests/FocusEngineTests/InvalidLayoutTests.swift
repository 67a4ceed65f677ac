import Foundation
import Testing

@testable import FocusEngine

/// The error `validate()` throws, or nil.
func validationError(_ layout: Layout) -> LayoutError? {
  do {
    try layout.validate()
    return nil
  } catch {
    return error
  }
}

/// A chain of `depth` groups, each nesting the next; the innermost holds item "a".
func nested(depth: Int) -> Group {
  var group = Group(id: "g\(depth)", items: ["a"])
  for level in stride(from: depth - 1, through: 1, by: -1) {
    group = Group(id: "g\(level)", groups: [group])
  }
  return group
}

@Suite("Invalid layouts are rejected with the path and the reason")
struct InvalidLayoutTests {
  static let a = item("a", 0, 0, 10, 10)

  @Test(
    "validate() names the first problem exactly",
    arguments: [
      (
        Layout(items: [a, item("b", 0, 0, 1, 1), item("a", 1, 1, 1, 1)]),
        LayoutError(path: "items[2].id", reason: #"duplicate id "a" (first used by items[0])"#)
      ),
      (
        Layout(items: [a, item("b", 0, 0, 10, -0.5)]),
        LayoutError(path: "items[1].frame", reason: "height must not be negative, got -0.5")
      ),
      (
        Layout(items: [item("a", 0, .nan, 10, 10)]),
        LayoutError(path: "items[0].frame", reason: "y must be finite, got nan")
      ),
      (
        Layout(items: [item("a", 0, 0, .infinity, 10)]),
        LayoutError(path: "items[0].frame", reason: "width must be finite, got inf")
      ),
      (
        Layout(items: [item("a", -.infinity, 0, 10, 10)]),
        LayoutError(path: "items[0].frame", reason: "x must be finite, got -inf")
      ),
      (
        Layout(canvas: Size(width: 1920, height: .nan), items: [a]),
        LayoutError(path: "canvas.height", reason: "must be finite and greater than 0, got nan")
      ),
      (
        Layout(
          items: [a],
          guides: [
            FocusGuide(
              id: "g1", frame: Rect(x: 0, y: 0, width: 1, height: 1), destinations: ["g2"]),
            FocusGuide(
              id: "g2", frame: Rect(x: 0, y: 0, width: 1, height: 1), destinations: ["g1"]),
          ]),
        LayoutError(path: "guides[0].destinations", reason: "cyclic guides: g1 → g2 → g1")
      ),
      (
        Layout(
          items: [a],
          guides: [
            FocusGuide(id: "g1", frame: Rect(x: 0, y: 0, width: 1, height: 1), destinations: ["g1"])
          ]),
        LayoutError(path: "guides[0].destinations", reason: "cyclic guides: g1 → g1")
      ),
      (
        Layout(
          items: [a],
          guides: [
            FocusGuide(
              id: "g1", frame: Rect(x: 0, y: 0, width: 1, height: 1), destinations: ["a", "zz"])
          ]),
        LayoutError(
          path: "guides[0].destinations[1]", reason: #"unknown item, group or guide "zz""#)
      ),
      (
        Layout(
          items: [a],
          guides: [
            FocusGuide(id: "a", frame: Rect(x: 0, y: 0, width: 1, height: 1), destinations: ["a"])
          ]
        ),
        LayoutError(path: "guides[0].id", reason: #"duplicate id "a" (first used by items[0])"#)
      ),
      (
        Layout(
          items: [a],
          guides: [
            FocusGuide(
              id: "g", frame: Rect(x: 0, y: .nan, width: 1, height: 1), destinations: ["a"])
          ]),
        LayoutError(path: "guides[0].frame", reason: "y must be finite, got nan")
      ),
      (
        Layout(
          items: [a],
          guides: [
            FocusGuide(
              id: "gd", frame: Rect(x: 0, y: 0, width: 1, height: 1), destinations: ["a"],
              group: "nope")
          ]),
        LayoutError(path: "guides[0].group", reason: #"unknown group "nope""#)
      ),
      (
        Layout(
          items: [a],
          guides: [
            FocusGuide(id: "gd", frame: Rect(x: 0, y: 0, width: 1, height: 1), destinations: [])
          ]),
        LayoutError(
          path: "guides[0].destinations", reason: "a guide needs at least one destination")
      ),
      (
        Layout(items: [a], groups: [Group(id: "row", items: ["a"], scroll: .horizontal)]),
        LayoutError(path: "groups[0].viewport", reason: "a scrolling group needs a viewport")
      ),
      (
        Layout(
          items: [a],
          groups: [
            Group(
              id: "row", items: ["a"], scroll: .vertical,
              viewport: Rect(x: 0, y: 0, width: -1, height: 10))
          ]),
        LayoutError(path: "groups[0].viewport", reason: "width must not be negative, got -1.0")
      ),
      (
        Layout(items: [a], groups: [Group(id: "row", items: ["a"], scrollMargin: -3)]),
        LayoutError(
          path: "groups[0].scrollMargin", reason: "must be finite and not negative, got -3.0")
      ),
      (
        Layout(
          items: [a, item("b", 0, 0, 1, 1)],
          groups: [Group(id: "g", items: ["a"], preferredFocus: "b"), Group(id: "h", items: ["b"])]),
        LayoutError(
          path: "groups[0].preferredFocus",
          reason: #""b" is not an item or group inside group "g""#)
      ),
      (
        Layout(items: [a], groups: [Group(id: "g", items: ["a"], preferredFocus: "g")]),
        LayoutError(
          path: "groups[0].preferredFocus",
          reason: #""g" is not an item or group inside group "g""#)
      ),
    ])
  func rejected(layout: Layout, expected: LayoutError) {
    #expect(validationError(layout) == expected)
  }

  @Test("groups may nest 64 deep, not 65")
  func depth() {
    #expect(validationError(Layout(items: [Self.a], groups: [nested(depth: 64)])) == nil)
    let path = "groups[0]" + String(repeating: ".groups[0]", count: 64)
    #expect(
      validationError(Layout(items: [Self.a], groups: [nested(depth: 65)]))
        == LayoutError(path: path, reason: "groups nest deeper than 64 levels"))
  }

  @Test("at most 100,000 items")
  func tooMany() {
    var items = (0..<Layout.maximumItemCount).map { item("i\($0)", Double($0), 0, 1, 1) }
    #expect(validationError(Layout(items: items)) == nil)
    items.append(item("extra", 0, 0, 1, 1))
    #expect(
      validationError(Layout(items: items))
        == LayoutError(path: "items", reason: "100001 items (at most 100000)"))
  }

  @Test("what the format allows: overlaps, negative coordinates, zero sizes, shared group ids")
  func allowed() throws {
    let layout = Layout(
      items: [
        item("a", -500, -500, 0, 0), item("b", -10, -10, 100, 100), item("c", 0, 0, 100, 100),
      ],
      groups: [Group(id: "a", items: ["b"])])
    try layout.validate()
    _ = try FocusState(layout: layout)
  }

  func decode(_ json: String) throws -> Layout {
    try JSONDecoder().decode(Layout.self, from: Data(json.utf8))
  }

  @Test(
    "unknown fields are rejected at every level, naming the path",
    arguments: [
      (#"{"items": [], "guide": []}"#, ""),
      (#"{"items": [], "canvas": {"width": 1, "height": 1, "depth": 1}}"#, "canvas"),
      (#"{"items": [], "groups": [{"id": "g", "trap": true}]}"#, "groups[0]"),
      (
        #"{"items": [], "groups": [{"id": "g", "groups": [{"id": "h", "scrol": "vertical"}]}]}"#,
        "groups[0].groups[0]"
      ),
      (
        #"{"items": [], "guides": [{"id": "g", "frame": [0,0,1,1], "destinations": ["x"], "to": 1}]}"#,
        "guides[0]"
      ),
    ])
  func unknownFields(json: String, path: String) {
    do {
      _ = try decode(json)
      Issue.record("decoded \(json)")
    } catch DecodingError.dataCorrupted(let context) {
      let found = context.codingPath.map { key in
        key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
      }.joined()
      #expect(found == (path.isEmpty ? "" : "." + path).replacingOccurrences(of: ".[", with: "["))
      #expect(context.debugDescription.hasPrefix("unknown field"))
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }

  @Test(
    "unknown enum values are rejected, listing the allowed ones",
    arguments: [
      #"{"items": [], "search": "webos"}"#, #"{"items": [], "layoutDirection": "ttb"}"#,
      #"{"items": [], "groups": [{"id": "g", "scroll": "diagonal"}]}"#,
      #"{"items": [{"id": "a", "frame": [0,0,1,1], "priority": "urgent"}]}"#,
    ])
  func unknownValues(json: String) {
    #expect(throws: DecodingError.self) { try decode(json) }
  }

  @Test("the new fields decode")
  func newFields() throws {
    let layout = try decode(
      """
      {"items": [{"id": "a", "frame": [-5, 0, 0, 10], "priority": "prioritized"},
                 {"id": "b", "frame": [0, 0, 1, 1], "priority": 1500}],
       "search": "android", "layoutDirection": "rtl",
       "groups": [{"id": "g", "items": ["a", "b"], "trapsFocus": true,
                   "remembersLastFocused": true, "preferredFocus": "b",
                   "selectionFollowsFocus": true, "search": "tvos", "scroll": "both",
                   "viewport": [0, 0, 100, 100], "scrollMargin": 8, "enabled": false}],
       "guides": [{"id": "gd", "frame": [1, 2, 3, 4], "destinations": ["g"],
                   "enabled": false, "group": "g"}]}
      """)
    #expect(
      layout
        == Layout(
          items: [
            Item(id: "a", frame: Rect(x: -5, y: 0, width: 0, height: 10), priority: .prioritized),
            Item(
              id: "b", frame: Rect(x: 0, y: 0, width: 1, height: 1),
              priority: FocusPriority(rawValue: 1500)),
          ],
          groups: [
            Group(
              id: "g", items: ["a", "b"], trapsFocus: true, remembersLastFocused: true,
              preferredFocus: "b", selectionFollowsFocus: true, search: .tvos, scroll: .both,
              viewport: Rect(x: 0, y: 0, width: 100, height: 100), scrollMargin: 8,
              enabled: false)
          ],
          search: .android, layoutDirection: .rtl,
          guides: [
            FocusGuide(
              id: "gd", frame: Rect(x: 1, y: 2, width: 3, height: 4), destinations: ["g"],
              enabled: false, group: "g")
          ]))
    try layout.validate()
  }
}
