import Foundation
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

private let touchSurface = PointerSettings(model: .touchSurface)

@Suite("pointer translator: mice and touchpads as the touch surface")
struct PointerTranslatorTests {
  @Test("a touchpad stroke: began at the centre, moves by the finger's travel, ends on lift")
  func touchpadSwipe() {
    var pointer = PointerTranslator(axes: touchpadAxes, settings: touchSurface)
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
    var pointer = PointerTranslator(settings: touchSurface)
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
    var far = PointerTranslator(settings: touchSurface)
    _ = far.handle(event(rel, InputEventCode.relX, 5000, at: 0))
    #expect(far.handle(report(at: 0)).last == .touch(.moved, x: 1, y: 0, at: 0))
  }

  @Test("the left button is select, held while held; SYN_DROPPED ends a touch")
  func clickAndDropped() {
    var pointer = PointerTranslator(axes: touchpadAxes, settings: touchSurface)
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

@Suite("pointer translator: mice and touchpads as the pointer (the default)")
struct PointerModelTranslatorTests {
  @Test(
    "a mouse: one move per kernel frame by its counts × speed, the button down and up, the wheel scrolls"
  )
  func mouse() {
    var pointer = PointerTranslator(settings: PointerSettings(speed: 1.5))
    let rel = InputEventCode.evRel
    let key = InputEventCode.evKey
    var outputs: [DeviceOutput] = []
    for input in [
      event(rel, InputEventCode.relX, 10, at: 0), event(rel, InputEventCode.relY, -4, at: 0),
      report(at: 0),
      // Two X reports in one frame add up.
      event(rel, InputEventCode.relX, 3, at: 8), event(rel, InputEventCode.relX, 1, at: 8),
      report(at: 8),
      event(key, InputEventCode.btnLeft, 1, at: 20), report(at: 20),
      event(key, InputEventCode.btnLeft, 0, at: 90), report(at: 90),
      // A notch up (away from the user) scrolls up: a negative dy; a notch right, +dx.
      event(rel, InputEventCode.relWheel, 1, at: 100), report(at: 100),
      event(rel, InputEventCode.relHWheel, 1, at: 110), report(at: 110),
    ] {
      outputs += pointer.handle(input)
    }
    #expect(
      outputs == [
        .pointer(.moved, dx: 15, dy: -6, buttons: 0, at: 0),
        .pointer(.moved, dx: 6, dy: 0, buttons: 0, at: 8_000_000),
        .pointer(.down, dx: 0, dy: 0, buttons: 1, at: 20_000_000),
        .pointer(.up, dx: 0, dy: 0, buttons: 0, at: 90_000_000),
        .pointer(.scroll, dx: 0, dy: -PointerTranslator.wheelPoints, buttons: 0, at: 100_000_000),
        .pointer(.scroll, dx: PointerTranslator.wheelPoints, dy: 0, buttons: 0, at: 110_000_000),
      ])
    // No touch-surface gestures and no rest deadline as the pointer.
    #expect(pointer.nextDeadline == nil)
  }

  @Test(
    "a touchpad: the finger's travel since the last frame, the pad's width is 1,200 points; landing does not jump"
  )
  func touchpad() {
    var pointer = PointerTranslator(axes: touchpadAxes)
    let key = InputEventCode.evKey
    let abs = InputEventCode.evAbs
    var outputs: [DeviceOutput] = []
    for input in [
      // A multitouch pad sends the position after BTN_TOUCH in the landing frame.
      event(key, InputEventCode.btnTouch, 1, at: 0), event(abs, InputEventCode.absX, 300, at: 0),
      event(abs, InputEventCode.absY, 250, at: 0), report(at: 0),
      event(abs, InputEventCode.absX, 400, at: 10), report(at: 10),
      event(abs, InputEventCode.absY, 200, at: 20), report(at: 20),
      event(key, InputEventCode.btnTouch, 0, at: 30), report(at: 30),
      // The next stroke lands far away: still no jump.
      event(key, InputEventCode.btnTouch, 1, at: 40), event(abs, InputEventCode.absX, 900, at: 40),
      report(at: 40),
      event(abs, InputEventCode.absX, 850, at: 50), report(at: 50),
    ] {
      outputs += pointer.handle(input)
    }
    // 100 of a 1000-wide pad is 120 points; 50 of its height is 60 (the width's scale).
    #expect(
      outputs == [
        .pointer(.moved, dx: 120, dy: 0, buttons: 0, at: 10_000_000),
        .pointer(.moved, dx: 0, dy: -60, buttons: 0, at: 20_000_000),
        .pointer(.moved, dx: -60, dy: 0, buttons: 0, at: 50_000_000),
      ])
  }

  @Test("SYN_DROPPED or an unplug with the button down cancels it (no click)")
  func cancelled() {
    var pointer = PointerTranslator()
    #expect(
      pointer.handle(event(InputEventCode.evKey, InputEventCode.btnLeft, 1, at: 5))
        == [.pointer(.down, dx: 0, dy: 0, buttons: 1, at: 5_000_000)])
    #expect(
      pointer.handle(event(InputEventCode.evSyn, InputEventCode.synDropped, 0, at: 9))
        == [.pointer(.cancelled, dx: 0, dy: 0, buttons: 0, at: 9_000_000)])
    #expect(pointer.releaseAll(at: 10).isEmpty)
    // A release the translator did not see go down sends nothing.
    #expect(pointer.handle(event(InputEventCode.evKey, InputEventCode.btnLeft, 0, at: 12)).isEmpty)
  }

  @Test("a mapping file's pointer settings: model and speed, checked")
  func mappingFile() throws {
    let mapping = try DeviceMapping.parse(
      Data(#"{"pointer": {"model": "touch-surface", "speed": 2}}"#.utf8))
    #expect(mapping.pointer == PointerSettings(model: .touchSurface, speed: 2))
    #expect(DeviceMapping.defaults.pointer == PointerSettings(model: .pointer, speed: 1))
    #expect(throws: DeviceMappingError.self) {
      try DeviceMapping.parse(Data(#"{"pointer": {"model": "mouse"}}"#.utf8))
    }
    #expect(throws: DeviceMappingError.self) {
      try DeviceMapping.parse(Data(#"{"pointer": {"speed": 0}}"#.utf8))
    }
  }
}
