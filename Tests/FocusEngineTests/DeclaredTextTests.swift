import FocusEngine
import Testing

/// A text field's declared `value` against the session's text: the app's write wins, an
/// unchanged declaration keeps what was typed, and restored text is not a declaration.
@Suite("Text fields: the app's declared value")
struct DeclaredTextTests {
  /// Two text fields `name` and `notes` (declared values as given) and a button `go`.
  static func form(name: String = "", notes: String = "") -> Layout {
    Layout(items: [
      Item(
        id: "name", frame: Rect(x: 0, y: 0, width: 300, height: 80), kind: .textField,
        value: name),
      Item(
        id: "notes", frame: Rect(x: 400, y: 0, width: 300, height: 80), kind: .textField,
        value: notes),
      Item(id: "go", frame: Rect(x: 800, y: 0, width: 200, height: 80)),
    ])
  }

  /// The form with `name` focused and "dune" typed into it by the remote.
  static func typed() throws -> FocusState {
    var state = try FocusState(layout: form())
    #expect(state.focused == "name")
    #expect(reduce(&state, .text(.set("dune"))) == [.textChanged(id: "name", value: "dune")])
    return state
  }

  @Test("a replaced layout that changes a field's declared value sets the session's text")
  func replacedValue() throws {
    var state = try Self.typed()
    let effects = reduce(&state, .replaceLayout(Self.form(notes: "by script")))
    #expect(effects == [.textChanged(id: "notes", value: "by script")])
    #expect(state.textValues == ["name": "dune", "notes": "by script"])
  }

  @Test("the app's write wins over the remote's typing into the focused field; typing goes on")
  func writeWinsWhileEditing() throws {
    var state = try Self.typed()
    let effects = reduce(&state, .replaceLayout(Self.form(name: "arrakis")))
    #expect(effects == [.textChanged(id: "name", value: "arrakis")])
    #expect(state.textValues == ["name": "arrakis", "notes": ""])
    #expect(state.focused == "name")
    #expect(
      reduce(&state, .text(.append("!"))) == [.textChanged(id: "name", value: "arrakis!")])
  }

  @Test("a patch that changes a field's declared value (removed and added again) sets it")
  func patchedValue() throws {
    var state = try Self.typed()
    let field = try #require(Self.form(name: "cleared").items.first)
    var cleared = field
    cleared.value = ""
    // The app clears the field it declared empty: the same declared value is no change...
    #expect(
      reduce(
        &state,
        .applyPatch(
          LayoutPatch([.removeItem("name"), .addItem(cleared, group: nil, before: "notes")]))) == []
    )
    #expect(state.textValues["name"] == "dune")
    // ...a new one is, and focus stays on the field added again.
    let effects = reduce(
      &state,
      .applyPatch(LayoutPatch([.removeItem("name"), .addItem(field, group: nil, before: "notes")])))
    #expect(effects == [.textChanged(id: "name", value: "cleared")])
    #expect(state.textValues["name"] == "cleared")
    #expect(state.focused == "name")
  }

  @Test("an unchanged declaration keeps the typed text; a new value equal to the text is silent")
  func unchanged() throws {
    var state = try Self.typed()
    #expect(reduce(&state, .replaceLayout(Self.form())) == [])
    #expect(state.textValues["name"] == "dune")
    // The page declares what was typed into it: already the session's text, no effect.
    #expect(reduce(&state, .replaceLayout(Self.form(name: "dune"))) == [])
    #expect(state.textValues["name"] == "dune")
  }

  @Test("restored text is not a declaration: a layout declaring the same values keeps it")
  func restoredText() throws {
    var state = try FocusState(layout: Self.form())
    #expect(
      reduce(&state, .restoreText(["name": "typed", "go": "not a field", "x": "gone"])) == [])
    #expect(state.textValues == ["name": "typed", "notes": ""])
    #expect(state.layout.items.first?.value == "")
    #expect(reduce(&state, .replaceLayout(Self.form())) == [])
    #expect(state.textValues == ["name": "typed", "notes": ""])
    // A declaration that does change still wins.
    #expect(
      reduce(&state, .replaceLayout(Self.form(name: "new")))
        == [.textChanged(id: "name", value: "new")])
  }
}
