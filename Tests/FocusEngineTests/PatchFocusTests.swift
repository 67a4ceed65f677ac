import Testing

@testable import FocusEngine

@Suite("Layout patches that name the new focus")
struct PatchFocusTests {
  @Test("closing a trapping group and focusing the opener is one step, with no recovery")
  func closeAndRestore() throws {
    var layout = grid(rows: 1, columns: 3)
    layout.items.append(item("ok", 100, 500, 300, 100))
    layout.groups = [Group(id: "modal", items: ["ok"], trapsFocus: true)]
    var state = try FocusState(layout: layout)
    reduce(&state, .move(.right))  // r0c1
    reduce(&state, .requestFocus(.group("modal")))
    #expect(state.focused == "ok")
    let effects = reduce(
      &state, .applyPatch(LayoutPatch([.removeGroup("modal")], focus: .item("r0c1"))))
    #expect(
      effects == [
        .focusChanged(FocusUpdateContext(previous: "ok", next: "r0c1", heading: .programmatic))
      ])
    #expect(state.focused == "r0c1")
    #expect(state.group("modal") == nil)
  }

  @Test("a focus target that cannot be focused falls back to the usual recovery")
  func unfocusableTarget() throws {
    var state = try FocusState(layout: grid(rows: 1, columns: 3, initialFocus: "r0c2"))
    let effects = reduce(
      &state, .applyPatch(LayoutPatch([.removeItem("r0c2")], focus: .item("r0c2"))))
    #expect(state.focused == "r0c0")
    #expect(
      effects == [
        .focusChanged(FocusUpdateContext(previous: "r0c2", next: "r0c0", heading: .recovery))
      ])
  }
}
