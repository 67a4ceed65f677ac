import FocusEngine
import Foundation
import ScreenCore
import TerminalScreen
import TerminalUI
import Testing

/// The phone remote's code in the terminal renderer: handed over from another thread, it wakes
/// the renderer's loop (no frame needed) and is drawn; too small a terminal shows the URL.
@Suite("Terminal renderer: the phone remote's QR code")
struct TerminalPhoneCodeTests {
  static let url = "http://192.0.2.7:8080/phone?token=0123456789abcdef0123456789abcdef"

  /// A renderer of `columns × rows` writing into a pipe; returns it and the pipe's read end.
  static func renderer(columns: Int, rows: Int) throws -> (TerminalRenderer, Int32) {
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
    let renderer = TerminalRenderer(
      output: ends[1], colorMode: .monochrome, size: (columns, rows))
    try renderer.start()
    return (renderer, ends[0])
  }

  /// Everything written so far.
  static func drain(_ descriptor: Int32) -> String {
    var data = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      guard count > 0 else { break }
      data += buffer[0..<count]
    }
    return String(decoding: data, as: UTF8.self)
  }

  @Test("a code shown from another thread wakes the loop and is drawn with its URL")
  func wakesAndDraws() throws {
    let (renderer, output) = try Self.renderer(columns: 100, rows: 40)
    defer {
      renderer.stop()
      close(output)
    }
    try renderer.render(TerminalRendererTests.frame(focused: "a", TerminalRendererTests.allStates))
    #expect(!Self.drain(output).contains("/phone?token="))
    let slot = renderer.phoneCodeSlot
    let url = Self.url
    Thread.detachNewThread { slot.show(url) }
    let wake = try #require(renderer.wakeFileDescriptor)
    var ready = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
    #expect(poll(&ready, 1, 10_000) == 1, "the renderer's wake descriptor became readable")
    try renderer.handleWake()
    let drawn = Self.drain(output)
    #expect(drawn.contains(url), "the URL is drawn")
    #expect(drawn.contains("▀") && drawn.contains("▄") && drawn.contains("█"), "the code")
  }

  @Test("a terminal too small for the code shows its URL alone")
  func tooSmall() throws {
    let (renderer, output) = try Self.renderer(columns: 100, rows: 20)
    defer {
      renderer.stop()
      close(output)
    }
    renderer.phoneCodeSlot.show(Self.url)
    try renderer.render(TerminalRendererTests.frame(focused: "a", TerminalRendererTests.allStates))
    let drawn = Self.drain(output)
    #expect(drawn.contains(Self.url))
    #expect(!drawn.contains("▄"), "no half blocks: the code does not fit")
  }
}
