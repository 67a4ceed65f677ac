import FocusEngine
import Testing

@testable import WebScreen

/// The page's pointer messages: canvas points, phases, the DOM's button mask; bad ones refused.
@Suite("Page input: the pointer")
struct PageInputTests {
  @Test("a pointer message becomes a pointer event with its phase, point and buttons")
  func pointer() throws {
    var input = PageInput()
    let event = try input.event(
      from: #"{"pointer":"down","x":812.5,"y":440,"buttons":1,"t":1250.3}"#)
    guard case .pointer(let pointer) = event else {
      Issue.record("not a pointer event: \(event)")
      return
    }
    #expect(pointer.phase == .down)
    #expect(pointer.x == 812.5 && pointer.y == 440)
    #expect(pointer.buttons == 1)
    #expect(!pointer.relative)
    #expect(pointer.at > 0)
    let scroll = try input.event(from: #"{"pointer":"scroll","x":0,"y":-120,"t":1260}"#)
    guard case .pointer(let wheel) = scroll else {
      Issue.record("not a pointer event: \(scroll)")
      return
    }
    #expect(wheel.phase == .scroll && wheel.y == -120 && wheel.buttons == 0)
    #expect(wheel.at >= pointer.at, "the page's clock, never backwards")
  }

  @Test("unknown phases, missing or non-numeric points and bad button masks are refused")
  func refused() {
    var input = PageInput()
    for text in [
      #"{"pointer":"hover","x":1,"y":2}"#, #"{"pointer":"moved","x":1}"#,
      #"{"pointer":"moved","x":"1","y":2}"#, #"{"pointer":"moved","x":1,"y":2,"buttons":-1}"#,
    ] {
      #expect(throws: PageInput.Problem.self, "\(text)") { try input.event(from: text) }
    }
  }
}
