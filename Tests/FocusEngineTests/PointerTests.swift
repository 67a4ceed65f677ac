import Foundation
import Testing

@testable import FocusEngine

/// The pointer rules: hit regions and magnetism, flicks, effects and shapes, idle hide, the
/// hand-over with directional input, reveal on hover and the disappear rule.
@Suite("Pointer")
struct PointerTests {
  /// A row of three 200×300 posters ("p0" "p1" "p2", 100 apart), a small button under them, a
  /// search field and a large content area with no magnetism.
  func screen(revealing: Bool = false) -> Layout {
    var items: [Item] = []
    for column in 0..<3 {
      items.append(
        Item(
          id: "p\(column)",
          frame: Rect(x: 100 + Double(column) * 300, y: 100, width: 200, height: 300)))
    }
    items.append(
      Item(id: "play", frame: Rect(x: 100, y: 500, width: 80, height: 40), cornerRadius: 8))
    items.append(
      Item(id: "search", frame: Rect(x: 1200, y: 100, width: 400, height: 60), kind: .textField))
    items.append(
      Item(
        id: "canvas", frame: Rect(x: 1000, y: 600, width: 800, height: 400),
        pointerMagnetism: false))
    items.append(
      Item(
        id: "logo", frame: Rect(x: 1200, y: 300, width: 60, height: 60), pointerEffect: .hover,
        pointerShape: "hand"))
    items.append(Item(id: "tb0", frame: Rect(x: 100, y: 1000, width: 60, height: 40)))
    items.append(Item(id: "tb1", frame: Rect(x: 200, y: 1000, width: 60, height: 40)))
    return Layout(
      items: items,
      groups: [Group(id: "toolbar", items: ["tb0", "tb1"], revealOnPointer: revealing)],
      initialFocus: "p0")
  }

  func move(_ x: Double, _ y: Double, at seconds: Double = 0, velocity: Point = .zero)
    -> FocusEvent
  {
    .pointer(
      PointerSample(
        .moved, position: Point(x: x, y: y), velocity: velocity, at: UInt64(seconds * 1e9)))
  }

  @Test("the item under the pointer takes focus with the pointer heading")
  func pointerFocuses() throws {
    var state = try FocusState(layout: screen())
    let effects = reduce(&state, move(700, 250))
    #expect(
      effects == [.focusChanged(FocusUpdateContext(previous: "p0", next: "p2", heading: .pointer))])
    #expect(state.pointer.target == "p2")
    #expect(state.pointer.visible)
    #expect(state.pointerPresentation.target == "p2")
  }

  @Test("the hit region is the frame grown by the margin; without magnetism, the frame only")
  func hitRegions() throws {
    var state = try FocusState(layout: screen())
    // 10 points right of p0 (margin 16): still p0's region.
    _ = reduce(&state, move(310, 250))
    #expect(state.pointer.target == "p0")
    // 20 points right of p0, 80 left of p1: nothing.
    _ = reduce(&state, move(320, 250))
    #expect(state.pointer.target == nil)
    #expect(state.focused == "p0")  // Focus stays on the last item.
    // 10 points above the canvas area (no magnetism): not targeted; inside it: targeted.
    _ = reduce(&state, move(1400, 590))
    #expect(state.pointer.target == nil)
    _ = reduce(&state, move(1400, 610))
    #expect(state.pointer.target == "canvas")
  }

  @Test("hysteresis: the current target keeps the pointer while it stays in its region")
  func hysteresis() throws {
    let layout = Layout(items: [
      Item(id: "a", frame: Rect(x: 0, y: 0, width: 100, height: 100)),
      Item(id: "b", frame: Rect(x: 110, y: 0, width: 100, height: 100)),
    ])
    var state = try FocusState(layout: layout)
    _ = reduce(&state, move(50, 50))
    #expect(state.pointer.target == "a")
    // 108 is in a's region (margin 16) and in b's (2 from it), nearer b: a holds it.
    _ = reduce(&state, move(108, 50))
    #expect(state.pointer.target == "a")
    // Arriving there fresh, the nearer frame wins.
    var fresh = try FocusState(layout: layout)
    _ = reduce(&fresh, move(300, 300))
    _ = reduce(&fresh, move(108, 50))
    #expect(fresh.pointer.target == "b")
  }

  @Test("magnetism pulls the drawn pointer a quarter of the way to the centre; none without it")
  func magnetism() throws {
    var state = try FocusState(layout: screen())
    // p1 is a poster (lift): centre (500, 250).
    _ = reduce(&state, move(420, 170))
    let pulled = state.pointerPresentation.position
    #expect(pulled == Point(x: 420 + 80 * 0.25, y: 170 + 80 * 0.25))
    // The canvas area has no magnetism: drawn where tracked.
    _ = reduce(&state, move(1100, 700))
    #expect(state.pointerPresentation.position == Point(x: 1100, y: 700))
    #expect(state.pointer.position == Point(x: 1100, y: 700))
  }

  @Test("effects and shapes: lift on posters, highlight with the item's shape on small controls")
  func effectsAndShapes() throws {
    var state = try FocusState(layout: screen())
    _ = reduce(&state, move(200, 250))
    #expect(state.pointerPresentation.effect == .lift)
    #expect(state.pointerPresentation.shape == PointerShape.circle)
    _ = reduce(&state, move(140, 520))
    let small = state.pointerPresentation
    #expect(small.effect == .highlight)
    #expect(small.shape == PointerShape.item)
    // Under highlight the pointer centres on the item, moved by a tenth of the offset.
    #expect(small.position == Point(x: 140, y: 520))
    _ = reduce(&state, move(110, 505))
    #expect(state.pointerPresentation.position == Point(x: 140 - 30 * 0.1, y: 520 - 15 * 0.1))
    // A text field: the I-beam, no effect.
    _ = reduce(&state, move(1300, 130))
    #expect(state.pointerPresentation.shape == PointerShape.iBeam)
    #expect(state.pointerPresentation.effect == PointerEffectStyle.none)
    // A custom shape name and the hover effect.
    _ = reduce(&state, move(1230, 330))
    #expect(state.pointerPresentation.shape == "hand")
    #expect(state.pointerPresentation.effect == .hover)
    // Off every item: a circle, no effect.
    _ = reduce(&state, move(900, 900))
    #expect(state.pointerPresentation.shape == PointerShape.circle)
    #expect(state.pointerPresentation.effect == PointerEffectStyle.none)
    #expect(state.pointerEffect(of: "p1") == .lift)
    #expect(screen().pointerEffects()["play"] == .highlight)
  }

  @Test("automatic is lift for an item with parallax layers even when small")
  func layeredIsPoster() throws {
    let item = Item(
      id: "x", frame: Rect(x: 0, y: 0, width: 50, height: 50),
      layers: [ParallaxLayer(name: "back", depth: 0)])
    #expect(FocusState.resolvedPointerEffect(item) == .lift)
  }

  @Test("click: down highlights, up activates the targeted item")
  func click() throws {
    var state = try FocusState(layout: screen())
    _ = reduce(&state, move(700, 250))
    let down = reduce(
      &state,
      .pointer(PointerSample(.down, position: Point(x: 700, y: 250), buttons: 1, at: 1)))
    #expect(down == [.highlighted("p2")])
    let up = reduce(&state, .pointer(PointerSample(.up, position: Point(x: 700, y: 250), at: 2)))
    #expect(up == [.activated("p2"), .selectionChanged(id: "p2", selected: true)])
    // Cancelled: the press ends without activating.
    _ = reduce(
      &state,
      .pointer(PointerSample(.down, position: Point(x: 700, y: 250), buttons: 1, at: 3)))
    #expect(state.pressed == "p2")
    #expect(
      reduce(&state, .pointer(PointerSample(.cancelled, position: Point(x: 700, y: 250), at: 4)))
        == [])
    #expect(state.pressed == nil)
  }

  @Test("a flick projects the release velocity and lands on the item nearest the end point")
  func flick() throws {
    var state = try FocusState(layout: screen())
    _ = reduce(&state, move(200, 250))
    // Release at 3030 pt/s to the right: projected 3030 × 0.099 = 300 points, to x = 500:
    // p1's centre column. p1 (crossed, end inside) wins over p0 (the start).
    var release = PointerSample(
      .up, position: Point(x: 200, y: 250), velocity: Point(x: 3030, y: 0), at: 1)
    let effects = reduce(&state, .pointer(release))
    #expect(
      effects == [.focusChanged(FocusUpdateContext(previous: "p0", next: "p1", heading: .pointer))])
    #expect(state.pointer.position == Point(x: 500, y: 250))
    // A faster flick passes p2 too: the end lies past p2 (at 1100), nearest p2's frame.
    release = PointerSample(
      .up, position: Point(x: 500, y: 250), velocity: Point(x: 6000, y: 0), at: 2)
    _ = reduce(&state, .pointer(release))
    #expect(state.focused == "p2")
    // Too slow: no flick.
    release = PointerSample(
      .up, position: Point(x: 700, y: 250), velocity: Point(x: -300, y: 0), at: 3)
    #expect(reduce(&state, .pointer(release)) == [])
    #expect(state.focused == "p2")
  }

  @Test("the projection is v · r/(1−r)/1000 with r = 0.99")
  func projectionConstant() {
    let travel = PointerRules.projection(of: Point(x: 1000, y: -2000))
    #expect(abs(travel.x - 99) < 1e-9)
    #expect(abs(travel.y + 198) < 1e-9)
  }

  @Test("the pointer hides after the idle timeout, not before")
  func idleHide() throws {
    var state = try FocusState(layout: screen())
    _ = reduce(&state, move(700, 250, at: 10))
    _ = reduce(&state, .pointerIdle(at: UInt64(11.9 * 1e9)))
    #expect(state.pointer.visible)
    _ = reduce(&state, .pointerIdle(at: 12_000_000_000))
    #expect(!state.pointer.visible)
    #expect(state.focused == "p2")  // Focus stays.
    // A custom timeout.
    var layout = screen()
    layout.pointerIdleTimeout = 0.5
    var quick = try FocusState(layout: layout)
    _ = reduce(&quick, move(700, 250, at: 1))
    _ = reduce(&quick, .pointerIdle(at: 1_500_000_000))
    #expect(!quick.pointer.visible)
  }

  @Test("an arrow hides the pointer and continues from the focused item; moving shows it")
  func pointerAndArrows() throws {
    var state = try FocusState(layout: screen())
    _ = reduce(&state, move(500, 250))
    #expect(state.focused == "p1")
    let effects = reduce(&state, .move(.right))
    #expect(effects == moved("p1", "p2", .right))
    #expect(!state.pointer.visible)
    #expect(state.pointer.target == nil)
    _ = reduce(&state, move(200, 250, at: 1))
    #expect(state.pointer.visible)
    #expect(state.focused == "p0")
  }

  @Test("reveal on pointer: the toolbar is unavailable until the pointer is over it")
  func revealOnPointer() throws {
    var state = try FocusState(layout: screen(revealing: true))
    #expect(!state.isFocusable("tb0"))
    #expect(state.explain("tb0").lines.contains { $0.contains("revealOnPointer") })
    _ = reduce(&state, move(130, 1020))
    #expect(state.isFocusable("tb0"))
    #expect(state.focused == "tb0")
    #expect(state.revealed == ["toolbar"])
    // Leaving: the toolbar closes; focus was in it and the last input was the pointer, so
    // focus is hidden.
    let effects = reduce(&state, move(700, 700))
    #expect(!state.isFocusable("tb0"))
    #expect(
      effects == [.focusChanged(FocusUpdateContext(previous: "tb0", next: nil, heading: .recovery))]
    )
  }

  @Test("the focused item vanishes after pointer input: focus is hidden, not moved")
  func disappearAfterPointer() throws {
    var state = try FocusState(layout: screen())
    _ = reduce(&state, move(500, 250))
    var layout = screen()
    layout.items.removeAll { $0.id == "p1" }
    let effects = reduce(&state, .replaceLayout(layout))
    #expect(
      effects == [.focusChanged(FocusUpdateContext(previous: "p1", next: nil, heading: .recovery))])
    #expect(state.focused == nil)
    // An arrow then starts from the item nearest the pointer.
    _ = reduce(&state, .move(.right))
    #expect(state.focused != nil)
  }

  @Test("after a directional input the existing recovery applies")
  func disappearAfterArrow() throws {
    var state = try FocusState(layout: screen())
    _ = reduce(&state, move(500, 250))
    _ = reduce(&state, .move(.right))
    #expect(state.focused == "p2")
    var layout = screen()
    layout.items.removeAll { $0.id == "p2" }
    _ = reduce(&state, .replaceLayout(layout))
    #expect(state.focused == "p1")
  }

  @Test("relative devices add deltas; positions are clamped to the canvas; non-finite ignored")
  func tracker() throws {
    var tracker = PointerTracker()
    let canvas = Size.tv
    let first = tracker.resolve(
      PointerEvent(.moved, x: 10, y: -5, relative: true, at: 0), canvas: canvas, start: nil)
    #expect(first?.position == Point(x: 970, y: 535))
    let far = tracker.resolve(
      PointerEvent(.moved, x: 1e12, y: -1e12, at: 500_000_000), canvas: canvas, start: nil)
    #expect(far?.position == Point(x: 1920, y: 0))
    #expect(far?.velocity == Point(x: (1920 - 970) / 0.5, y: (0 - 535) / 0.5))
    #expect(
      tracker.resolve(PointerEvent(.moved, x: .nan, y: 0, at: 1), canvas: canvas, start: nil)
        == nil)
    // Through the interpreter.
    var state = try FocusState(layout: screen())
    var remote = RemoteInterpreter()
    _ = remote.handle(.pointer(PointerEvent(.moved, x: 700, y: 250, at: 0)), &state)
    #expect(state.focused == "p2")
    _ = remote.handle(.pointer(PointerEvent(.moved, x: -300, y: 0, relative: true, at: 1)), &state)
    #expect(state.focused == "p1")
  }

  @Test("scroll moves the scrolling group under the pointer")
  func scroll() throws {
    let items = (0..<10).map {
      Item(id: "c\($0)", frame: Rect(x: Double($0) * 300, y: 0, width: 250, height: 200))
    }
    let layout = Layout(
      items: items,
      groups: [
        Group(
          id: "row", items: items.map(\.id), scroll: .horizontal,
          viewport: Rect(x: 0, y: 0, width: 1000, height: 200))
      ])
    var state = try FocusState(layout: layout)
    _ = reduce(&state, move(100, 100))
    let effects = reduce(
      &state,
      .pointer(
        PointerSample(.scroll, position: Point(x: 100, y: 100), scroll: Point(x: 600, y: 0), at: 1))
    )
    #expect(effects == [.scrolled(group: "row", offset: Point(x: 600, y: 0))])
    // Beyond the viewport nothing is targeted, even where content lies.
    _ = reduce(&state, move(1100, 100, at: 2))
    #expect(state.pointer.target == nil)
  }

  @Test("pointer hit testing stays inside a trapping group")
  func trapped() throws {
    let layout = Layout(
      items: [
        Item(id: "a", frame: Rect(x: 0, y: 0, width: 100, height: 100)),
        Item(id: "m", frame: Rect(x: 300, y: 0, width: 100, height: 100)),
      ], groups: [Group(id: "modal", items: ["m"], trapsFocus: true)], initialFocus: "m")
    var state = try FocusState(layout: layout)
    _ = reduce(&state, move(50, 50))
    #expect(state.focused == "m")
    #expect(state.pointer.target == nil)
  }

  @Test("layout options decode and validate")
  func layoutOptions() throws {
    let json = """
      {"pointerHitMargin": 8, "pointerIdleTimeout": 3,
       "items": [{"id": "a", "frame": [0, 0, 10, 10], "pointerEffect": "lift",
                  "pointerMagnetism": false, "pointerShape": "hand"}],
       "groups": [{"id": "g", "items": ["a"], "revealOnPointer": true}]}
      """
    let layout = try JSONDecoder().decode(Layout.self, from: Data(json.utf8))
    #expect(layout.pointerHitMargin == 8)
    #expect(layout.pointerIdleTimeout == 3)
    #expect(layout.items[0].pointerEffect == .lift)
    #expect(!layout.items[0].pointerMagnetism)
    #expect(layout.items[0].pointerShape == "hand")
    #expect(layout.groups[0].revealOnPointer)
    var bad = layout
    bad.pointerIdleTimeout = 0
    #expect(throws: LayoutError.self) { try bad.validate() }
    bad = layout
    bad.pointerHitMargin = .infinity
    #expect(throws: LayoutError.self) { try bad.validate() }
    bad = layout
    bad.items[0].pointerShape = "no spaces"
    #expect(throws: LayoutError.self) { try bad.validate() }
  }
}

extension PointerTests {
  @Test("explain shows the hit region and the resolved effect")
  func explainPointer() throws {
    let state = try FocusState(layout: screen())
    let lines = state.explain("p0").lines
    #expect(
      lines.contains(
        "pointer: hit region [84, 84, 232 × 332] (frame + 16 margin) · effect lift (automatic)"))
    #expect(
      state.explain("canvas").lines.contains {
        $0.contains("(frame, no magnetism)") && $0.contains("[1000, 600, 800 × 400]")
      })
  }
}
