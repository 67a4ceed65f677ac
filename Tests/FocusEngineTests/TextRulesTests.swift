import FocusEngine
import Testing

/// The id grammar and the free-text rules (issue 17): every C0 and C1 control, unpaired bidi
/// controls, and the layout validation that names the item.
@Suite("Text rules: ids and free text from peers")
struct TextRulesTests {
  @Test(
    "ids: letters, digits and - _ . : / @ are allowed",
    arguments: ["a", "main", "living-room.tv:2", "remote:1234", "row/1@home", "A_b-C.d", "9"])
  func goodIDs(_ id: String) {
    #expect(TextRules.idProblem(id) == nil)
  }

  @Test(
    "ids: anything else is refused, by code point and position",
    arguments: [
      ("", "is empty"),
      ("a b", "contains U+0020 at position 1"),
      ("screen\nx", "contains U+000A at position 6"),
      ("x\u{1B}[31m", "contains U+001B at position 1"),
      ("caf\u{E9}", "contains U+00E9 at position 3"),
      ("\u{202E}abc", "contains U+202E at position 0"),
      ("a\"b", "contains U+0022 at position 1"),
      (String(repeating: "x", count: 129), "is 129 characters long (at most 128)"),
    ])
  func badIDs(_ id: String, _ reason: String) throws {
    let problem = try #require(TextRules.idProblem(id))
    #expect(problem.hasPrefix(reason), "\(problem)")
  }

  @Test("ids: each ASCII character and a few beyond are valid exactly as the scalar rule says")
  func everyCharacter() {
    let ascii = (0...127).map { Unicode.Scalar(UInt8($0)) }
    let scalars = ascii + ["\u{E9}", "\u{202E}", "\u{1F600}"] as [Unicode.Scalar]
    for scalar in scalars {
      let id = "a" + String(Character(scalar)) + "z"
      #expect(
        (TextRules.idProblem(id) == nil) == TextRules.isIDScalar(scalar),
        "U+\(String(scalar.value, radix: 16))")
    }
  }

  @Test("ids: a field may lower the length bound (screen ids: 64)")
  func lowerBound() {
    #expect(TextRules.idProblem(String(repeating: "x", count: 64), maximumLength: 64) == nil)
    #expect(TextRules.idProblem(String(repeating: "x", count: 65), maximumLength: 64) != nil)
  }

  @Test(
    "free text: letters of any script, emoji, marks and paired bidi controls pass",
    arguments: [
      "", "Night Train", "東京物語", "🎬 Movie Night 🍿", "Ame\u{301}lie", "👨‍👩‍👧 family",
      "\u{2067}שלום\u{2069} world", "\u{202B}abc\u{202C}", "\u{2066}a\u{202A}b\u{202C}\u{2069}",
      "\u{200F}mark", "ÿ ¡ «»",
    ])
  func goodText(_ text: String) {
    #expect(TextRules.textProblem(text) == nil)
  }

  /// Every C0 control (tab and newline too), DEL and every C1 control.
  static let controls: [UInt32] = Array(0x00...0x1F) + Array(0x7F...0x9F)

  @Test("free text: every C0 and C1 control is refused", arguments: controls)
  func controlRefused(_ value: UInt32) throws {
    let scalar = try #require(Unicode.Scalar(value))
    let text = "ok" + String(Character(scalar)) + "ok"
    let problem = try #require(TextRules.textProblem(text), "U+\(value) passed")
    #expect(problem.hasPrefix("contains control character U+00"), "\(problem)")
    #expect(problem.hasSuffix("at position 2"), "\(problem)")
  }

  @Test(
    "free text: line separators and unpaired or crossed bidi controls are refused",
    arguments: [
      ("a\u{2028}b", "contains control character U+2028"),
      ("a\u{2029}b", "contains control character U+2029"),
      ("\u{202E}evil", "leaves 1 bidirectional control(s) unclosed"),
      ("x\u{202C}", "has an unpaired bidirectional control U+202C at position 1"),
      ("x\u{2069}", "has an unpaired bidirectional control U+2069 at position 1"),
      ("\u{2066}a\u{202C}", "has an unpaired bidirectional control U+202C"),
      ("\u{202A}a\u{2069}", "has an unpaired bidirectional control U+2069"),
      (String(repeating: "\u{2066}", count: 17), "nests bidirectional controls deeper than 16"),
    ])
  func badText(_ text: String, _ reason: String) throws {
    let problem = try #require(TextRules.textProblem(text))
    #expect(problem.hasPrefix(reason), "\(problem)")
  }

  static let hostileTitle = "Esc\u{1B}]0;HACKED\u{07}\u{1B}[2J"

  @Test("a layout with an escape sequence in a title is refused naming the item")
  func layoutTitle() {
    let layout = Layout(items: [
      Item(id: "ok", title: "fine", frame: Rect(x: 0, y: 0, width: 10, height: 10)),
      Item(
        id: "poster-7", title: Self.hostileTitle, frame: Rect(x: 20, y: 0, width: 10, height: 10)),
    ])
    #expect(
      throws: LayoutError(
        path: "items[1].title",
        reason: "item \"poster-7\" contains control character U+001B at position 3")
    ) { try layout.validate() }
  }

  @Test("values, layer names and ids in a layout follow the same rules")
  func layoutFields() throws {
    let frame = Rect(x: 0, y: 0, width: 10, height: 10)
    let value = Layout(items: [Item(id: "q", frame: frame, kind: .textField, value: "a\nb")])
    #expect(throws: LayoutError.self) { try value.validate() }
    let layer = Layout(items: [
      Item(id: "p", frame: frame, layers: [ParallaxLayer(name: "\u{9B}2J", depth: 0)])
    ])
    let error = try #require(throws: LayoutError.self) { try layer.validate() }
    #expect(error.path == "items[0].layers[0].name")
    let group = Layout(
      items: [Item(id: "p", frame: frame)], groups: [Group(id: "row\n1", items: ["p"])])
    let groupError = try #require(throws: LayoutError.self) { try group.validate() }
    #expect(groupError.path == "groups[0].id")
    let slash = Layout(items: [Item(id: "rows/1@home", frame: frame)])
    #expect(throws: Never.self) { try slash.validate() }
  }
}
