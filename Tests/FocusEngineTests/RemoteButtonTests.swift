import Testing

@testable import FocusEngine

@Suite("Remote buttons: names and the keys with no focus meaning")
struct RemoteButtonTests {
  @Test("canonical names round-trip, in the order help lists them")
  func canonicalNames() {
    for name in RemoteButton.canonicalNames {
      #expect(RemoteButton(name: name)?.name == name)
    }
    #expect(
      RemoteButton.canonicalNames == [
        "up", "down", "left", "right", "select", "menu", "home", "play-pause", "page-up",
        "page-down", "tab", "shift-tab", "volume-up", "volume-down", "mute", "power", "info",
      ])
  }

  @Test("aliases and upper case resolve; unknown names do not")
  func aliases() {
    #expect(RemoteButton(name: "Back") == .menu)
    #expect(RemoteButton(name: "enter") == .select)
    #expect(RemoteButton(name: "PLAY_PAUSE") == .playPause)
    #expect(RemoteButton(name: "backtab") == .shiftTab)
    #expect(RemoteButton(name: "tv") == .home)
    #expect(RemoteButton(name: "sideways") == nil)
    #expect(RemoteButton(name: "") == nil)
  }

  @Test(
    "a key with no focus meaning is acknowledged and changes nothing, down, held or up",
    arguments: [RemoteButton.pageUp, .pageDown, .volumeUp, .volumeDown, .mute, .power, .info])
  func noFocusMeaning(_ button: RemoteButton) throws {
    var focus = try FocusState(layout: row(3))
    let before = focus
    var interpreter = RemoteInterpreter()
    var effects: [FocusEffect] = []
    for (phase, ms) in [(ButtonPhase.down, 0), (.held, 1500), (.up, 2000)] {
      effects += interpreter.handle(.button(button, phase, at: UInt64(ms) * millisecond), &focus)
    }
    #expect(effects.isEmpty)
    #expect(focus == before)
    #expect(interpreter.isIdle, "the release ends the hold")
  }

  @Test("two keys with no focus meaning are held apart: releasing one leaves the other down")
  func heldApart() throws {
    var focus = try FocusState(layout: row(3))
    var interpreter = RemoteInterpreter()
    _ = interpreter.handle(.button(.volumeUp, .down, at: 0), &focus)
    _ = interpreter.handle(.button(.mute, .down, at: 10 * millisecond), &focus)
    _ = interpreter.handle(.button(.volumeUp, .up, at: 20 * millisecond), &focus)
    #expect(!interpreter.isIdle, "mute is still down")
    _ = interpreter.handle(.button(.mute, .up, at: 30 * millisecond), &focus)
    #expect(interpreter.isIdle)
  }

  @Test("arrows have their direction; other buttons none")
  func directions() {
    #expect(RemoteButton.left.direction == .left)
    #expect(RemoteButton.down.direction == .down)
    #expect(RemoteButton.select.direction == nil)
    #expect(RemoteButton.pageUp.direction == nil)
  }
}

@Suite("Focus effects as people read them")
struct FocusEffectSummaryTests {
  @Test("each effect is one short sentence")
  func sentences() {
    let moved = FocusEffect.focusChanged(
      FocusUpdateContext(previous: nil, next: "b", heading: .initial))
    #expect(moved.summary == "focus none → b (initial)")
    #expect(FocusEffect.movementFailed(.next).summary == "bump next: no item that way")
    #expect(FocusEffect.playPause("p1").summary == "play/pause p1")
    #expect(FocusEffect.doubleTap(.select).summary == "double tap select")
    #expect(FocusEffect.textChanged(id: "q", value: "star").summary == "q text \"star\"")
    #expect(
      FocusEffect.itemsInView(group: "g", range: 10..<20).summary == "items in view g#10..<20")
  }
}
