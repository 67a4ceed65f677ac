import Testing

@testable import FocusEngine

/// A row of `count` posters, ids `p0`…, 300 wide with 40-point gaps.
func row(_ count: Int, unavailable: Set<String> = [], textField: String? = nil) -> Layout {
  Layout(
    items: (0..<count).map { index in
      let id = "p\(index)"
      return Item(
        id: id, frame: Rect(x: Double(index) * 340, y: 0, width: 300, height: 200),
        available: !unavailable.contains(id), kind: id == textField ? .textField : .button,
        layers: [ParallaxLayer(name: "back", depth: 0), ParallaxLayer(name: "front", depth: 1)])
    })
}

let millisecond: UInt64 = 1_000_000

@Suite("Touch recognizer: recorded streams")
struct TouchRecognizerTests {
  /// Feeds samples `(phase, x, y, ms)` and returns every output in order.
  func feed(_ samples: [(TouchRecognizer.Phase, Double, Double, UInt64)]) -> (
    [TouchRecognizer.Output], TouchRecognizer
  ) {
    var recognizer = TouchRecognizer()
    var outputs: [TouchRecognizer.Output] = []
    for (phase, x, y, ms) in samples {
      outputs += recognizer.handle(phase, x: x, y: y, at: ms * millisecond)
    }
    return (outputs, recognizer)
  }

  @Test("a slow drag across 1.5 units steps twice (a third of the surface each) and never coasts")
  func slowDrag() {
    var samples: [(TouchRecognizer.Phase, Double, Double, UInt64)] = [(.began, -0.75, 0, 0)]
    for index in 1...150 {
      samples.append((.moved, -0.75 + Double(index) * 0.01, 0, UInt64(index) * 10))
    }
    samples.append((.ended, 0.75, 0, 1510))
    let (outputs, recognizer) = feed(samples)
    #expect(outputs == [.step(.right), .step(.right)])
    #expect(recognizer.tilt == .zero)
    #expect(!recognizer.touching)
  }

  @Test("vertical steps take a quarter of the surface; drift across the axis is ignored")
  func verticalWithDrift() {
    let (outputs, _) = feed([
      (.began, 0, -0.6, 0), (.moved, 0.05, -0.3, 100), (.moved, 0.2, -0.05, 200),
      (.moved, 0.3, 0.45, 400), (.ended, 0.3, 0.45, 900),
    ])
    // 1.05 units down: two steps of 0.5; 0.3 sideways drift changes nothing.
    #expect(outputs == [.step(.down), .step(.down)])
  }

  @Test("a flick coasts: release speed v gives v²/2a of extra travel")
  func flick() {
    // 0.9 units right in 150 ms, the last 50 ms at 6 units/s.
    let (outputs, _) = feed([
      (.began, -0.45, 0, 0), (.moved, -0.3, 0, 50), (.moved, 0.15, 0, 100),
      (.ended, 0.45, 0, 150),
    ])
    // One step while touching (0.9 ≥ 2/3); release 0.3 units per 50 ms = 6 units/s:
    // 36 / 12 = 3 units of coast = 4 steps of 2/3.
    #expect(outputs.count == 2)
    #expect(outputs.first == .step(.right))
    guard case .coast(let direction, let steps, let speed) = outputs.last else {
      Issue.record("no coast: \(outputs)")
      return
    }
    #expect(direction == .right && steps == 4)
    #expect(abs(speed - 6) < 1e-9)
  }

  @Test("a short slow movement only tilts, and the tilt leans towards the next item")
  func tiltOnly() {
    var recognizer = TouchRecognizer()
    _ = recognizer.handle(.began, x: 0, y: 0, at: 0)
    #expect(recognizer.handle(.moved, x: 0.4, y: 0.1, at: 200 * millisecond).isEmpty)
    #expect(abs(recognizer.tilt.x - 0.6) < 1e-9)  // 0.4 of the 2/3 threshold
    #expect(abs(recognizer.tilt.y - 0.06) < 1e-9)  // damped: 0.1 × 0.3 / 0.5
    #expect(recognizer.handle(.ended, x: 0.4, y: 0.1, at: 600 * millisecond).isEmpty)
    #expect(recognizer.tilt == .zero)
  }

  @Test("samples out of order or without a landing never crash or step")
  func hostileStreams() {
    let (outputs, _) = feed([
      (.moved, 0.9, 0, 10), (.began, 0, 0, 500), (.moved, 0.1, 0, 100), (.ended, 0.2, 0, 50),
      (.cancelled, 0, 0, 0), (.ended, 1, 1, 0),
    ])
    #expect(outputs.isEmpty)
  }
}

@Suite("Remote interpreter: repeats, holds, double taps, text, parallax")
struct RemoteInterpreterTests {
  @Test("holding right for 2 s: a move on press, then one after 0.5 s and every 50 ms")
  func autoRepeat() throws {
    var focus = try FocusState(layout: row(60))
    var remote = RemoteInterpreter()
    var moves = 0
    func count(_ effects: [FocusEffect]) {
      moves += effects.filter { if case .focusChanged = $0 { true } else { false } }.count
    }
    count(remote.handle(.button(.right, .down, at: 0), &focus))
    // Ticks arrive late and in bursts (network jitter): only their timestamps matter.
    for tick in stride(from: 50, through: 1950, by: 50) where tick % 200 == 0 {
      count(remote.handle(.button(.right, .held, at: UInt64(tick) * millisecond), &focus))
    }
    count(remote.handle(.button(.right, .up, at: 2000 * millisecond), &focus))
    // 1 on press + repeats at 0.5, 0.55, …, 2.0 s: 1 + 31 = 32.
    #expect(moves == 32)
    #expect(focus.focused == "p32")
  }

  @Test("a held arrow stops at the end of the row with one bump")
  func repeatBumps() throws {
    var focus = try FocusState(layout: row(5))
    var remote = RemoteInterpreter()
    _ = remote.handle(.button(.right, .down, at: 0), &focus)
    let effects = remote.handle(.button(.right, .up, at: 2000 * millisecond), &focus)
    #expect(focus.focused == "p4")
    #expect(effects.filter { $0 == .movementFailed(.right) }.count == 1)
    #expect(remote.bump == .right)
  }

  @Test("select: highlight on press, activate on release; held 1 s: context menu, no activation")
  func selectAndLongPress() throws {
    var focus = try FocusState(layout: row(3))
    var remote = RemoteInterpreter()
    #expect(remote.handle(.button(.select, .down, at: 0), &focus) == [.highlighted("p0")])
    #expect(Parallax.of(focus, remote)?.scale == Parallax.pressedScale)
    #expect(
      remote.handle(.button(.select, .up, at: 100 * millisecond), &focus) == [
        .activated("p0"), .selectionChanged(id: "p0", selected: true),
      ])
    _ = remote.handle(.button(.select, .down, at: 1000 * millisecond), &focus)
    #expect(
      remote.handle(.button(.select, .held, at: 2100 * millisecond), &focus) == [
        .contextMenu("p0")
      ])
    #expect(remote.handle(.button(.select, .up, at: 2200 * millisecond), &focus).isEmpty)
    #expect(focus.pressed == nil)
    #expect(focus.selected == ["p0"])
  }

  @Test("two select taps within 300 ms are a double tap; slower ones are not")
  func doubleTap() throws {
    var focus = try FocusState(layout: row(3))
    var remote = RemoteInterpreter()
    _ = remote.handle(.button(.select, .down, at: 0), &focus)
    _ = remote.handle(.button(.select, .up, at: 50 * millisecond), &focus)
    _ = remote.handle(.button(.select, .down, at: 200 * millisecond), &focus)
    let second = remote.handle(.button(.select, .up, at: 250 * millisecond), &focus)
    #expect(second.last == .doubleTap(.select))
    _ = remote.handle(.button(.select, .down, at: 900 * millisecond), &focus)
    let third = remote.handle(.button(.select, .up, at: 950 * millisecond), &focus)
    #expect(!third.contains(.doubleTap(.select)))
  }

  @Test("menu and home act on release")
  func menuHome() throws {
    var focus = try FocusState(layout: row(2))
    var remote = RemoteInterpreter()
    #expect(remote.handle(.button(.menu, .down, at: 0), &focus).isEmpty)
    #expect(remote.handle(.button(.menu, .up, at: 1), &focus) == [.back])
    _ = remote.handle(.button(.home, .down, at: 10), &focus)
    #expect(remote.handle(.button(.home, .up, at: 11), &focus) == [.home])
  }

  @Test("text goes into the focused text field only")
  func text() throws {
    var focus = try FocusState(layout: row(3, textField: "p1"))
    var remote = RemoteInterpreter()
    #expect(
      remote.handle(.text(.append("star")), &focus) == [.textRejected("no text field has focus")])
    _ = remote.handle(.button(.right, .down, at: 0), &focus)
    #expect(focus.isEditingText)
    #expect(
      remote.handle(.text(.append("star")), &focus) == [.textChanged(id: "p1", value: "star")])
    #expect(remote.handle(.text(.append("s")), &focus) == [.textChanged(id: "p1", value: "stars")])
    #expect(remote.handle(.text(.clear), &focus) == [.textChanged(id: "p1", value: "")])
    #expect(focus.textValues == ["p1": ""])
  }

  @Test("parallax: tilt follows the finger, deeper layers move less, a bump leans into the edge")
  func parallax() throws {
    var focus = try FocusState(layout: row(3))
    var remote = RemoteInterpreter()
    let rest = try #require(Parallax.of(focus, remote))
    #expect(rest.rotateX == 0 && rest.rotateY == 0)
    #expect(rest.scale == Parallax.focusedScale)
    #expect(rest.specular == Point(x: 0.5, y: 0.5))
    _ = remote.handle(.touch(.began, x: 0, y: 0, at: 0), &focus)
    _ = remote.handle(.touch(.moved, x: 1.0 / 3.0, y: 0, at: 100 * millisecond), &focus)
    let tilted = try #require(Parallax.of(focus, remote))
    #expect(abs(tilted.rotateY - 2.5) < 1e-9)  // half way to a step: half of 5°
    #expect(abs(tilted.translate[0].x - 1) < 1e-9)  // back layer: 2 pt × 0.5
    #expect(abs(tilted.translate[1].x - 4) < 1e-9)  // front layer: 8 pt × 0.5
    #expect(tilted.specular.x < 0.5)  // the highlight moves against the tilt
    _ = remote.handle(.touch(.ended, x: 1.0 / 3.0, y: 0, at: 900 * millisecond), &focus)
    #expect(Parallax.of(focus, remote)?.rotateY == 0)
    _ = remote.handle(.button(.left, .down, at: 1000 * millisecond), &focus)
    let bumped = try #require(Parallax.of(focus, remote))
    #expect(bumped.rotateY == -Parallax.bumpTilt * Parallax.maxRotation)
    #expect(Parallax.shadow(for: .unavailable).opacity == 0)
    #expect(Parallax.shadow(for: .focused).radius > Parallax.shadow(for: .highlighted).radius)
  }
}
