import InputDevices
import Testing

private func event(_ type: UInt16, _ code: UInt16, _ value: Int32, at ms: UInt64) -> InputEvent {
  InputEvent(time: ms * 1_000_000, type: type, code: code, value: value)
}

private func report(at ms: UInt64) -> InputEvent {
  event(InputEventCode.evSyn, InputEventCode.synReport, 0, at: ms)
}

private let touchpadAxes: [UInt16: AxisRange] = [
  InputEventCode.absX: AxisRange(minimum: 0, maximum: 1000),
  InputEventCode.absY: AxisRange(minimum: 0, maximum: 500),
]

@Suite("pointer translator: mice and touchpads as the touch surface")
struct PointerTranslatorTests {
  @Test("a touchpad stroke: began at the centre, moves by the finger's travel, ends on lift")
  func touchpadSwipe() {
    var pointer = PointerTranslator(axes: touchpadAxes)
    let key = InputEventCode.evKey
    let abs = InputEventCode.evAbs
    var outputs: [DeviceOutput] = []
    for input in [
      event(abs, InputEventCode.absX, 300, at: 0), event(abs, InputEventCode.absY, 250, at: 0),
      event(key, InputEventCode.btnTouch, 1, at: 0), report(at: 0),
      event(abs, InputEventCode.absX, 450, at: 10), report(at: 10),
      event(abs, InputEventCode.absX, 600, at: 20), event(abs, InputEventCode.absY, 200, at: 20),
      report(at: 20),
      event(key, InputEventCode.btnTouch, 0, at: 30), report(at: 30),
    ] {
      outputs += pointer.handle(input)
    }
    // 300 of a 1000-wide pad is 0.6 of the surface's 2 units; 50 of 500 high is 0.2 up.
    #expect(
      outputs == [
        .touch(.began, x: 0, y: 0, at: 0),
        .touch(.moved, x: 0.3, y: 0, at: 10_000_000),
        .touch(.moved, x: 0.6, y: -0.2, at: 20_000_000),
        .touch(.ended, x: 0.6, y: -0.2, at: 30_000_000),
      ])
    #expect(pointer.nextDeadline == nil)
  }

  @Test("a mouse flick: began on motion, moved per frame, ended at the last motion after rest")
  func mouseFlick() {
    var pointer = PointerTranslator()
    let rel = InputEventCode.evRel
    var outputs: [DeviceOutput] = []
    for input in [
      event(rel, InputEventCode.relX, -60, at: 0), report(at: 0),
      event(rel, InputEventCode.relX, -90, at: 8), event(rel, InputEventCode.relY, 15, at: 8),
      report(at: 8),
    ] {
      outputs += pointer.handle(input)
    }
    #expect(
      outputs == [
        .touch(.began, x: 0, y: 0, at: 0),
        .touch(.moved, x: -0.2, y: 0, at: 0),
        .touch(.moved, x: -0.5, y: 0.05, at: 8_000_000),
      ])
    #expect(pointer.nextDeadline == 88_000_000)
    #expect(pointer.tick(at: 50_000_000).isEmpty)
    // Ended stamped at the last motion, so the swipe keeps the flick's speed.
    #expect(pointer.tick(at: 90_000_000) == [.touch(.ended, x: -0.5, y: 0.05, at: 8_000_000)])
    #expect(pointer.nextDeadline == nil)
    // Travel is clamped to the surface.
    var far = PointerTranslator()
    _ = far.handle(event(rel, InputEventCode.relX, 5000, at: 0))
    #expect(far.handle(report(at: 0)).last == .touch(.moved, x: 1, y: 0, at: 0))
  }

  @Test("the left button is select, held while held; SYN_DROPPED ends a touch")
  func clickAndDropped() {
    var pointer = PointerTranslator(axes: touchpadAxes)
    let key = InputEventCode.evKey
    #expect(
      pointer.handle(event(key, InputEventCode.btnLeft, 1, at: 5))
        == [.key(.select, .down, at: 5_000_000)])
    #expect(
      pointer.handle(event(key, InputEventCode.btnLeft, 0, at: 90))
        == [.key(.select, .up, at: 90_000_000)])
    _ = pointer.handle(event(InputEventCode.evAbs, InputEventCode.absX, 10, at: 100))
    _ = pointer.handle(event(key, InputEventCode.btnTouch, 1, at: 100))
    _ = pointer.handle(report(at: 100))
    #expect(
      pointer.handle(event(InputEventCode.evSyn, InputEventCode.synDropped, 0, at: 120))
        == [.touch(.ended, x: 0, y: 0, at: 120_000_000)])
  }
}
