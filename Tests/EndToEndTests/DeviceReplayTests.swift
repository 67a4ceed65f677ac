import Foundation
import TestSupport
import Testing

/// Issue 15's acceptance for input devices: replaying a keyboard, a media remote and a
/// gamepad (`tenfoot-remote device --replay`) moves focus, hold-repeats and selects exactly as
/// the equivalent `tenfoot-remote press`/`hold` commands do, through real broker and screen
/// processes.
@Suite("input device replays across processes", .serialized)
struct DeviceReplayTests {
  /// A recording from Tests/InputDevicesTests/Fixtures (see the README there).
  static func recording(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("InputDevicesTests/Fixtures/\(name).evemu").path
  }

  /// Each recording, the commands that do what it does (see the fixtures' README), and the
  /// item both select: a hold of t seconds moves 1 + ⌊(t − 0.5) / 0.05⌋ + 1 items.
  static let cases: [(String, [[String]], String)] = [
    (
      "usb-keyboard",
      [
        ["press", "right", "right", "down"], ["hold", "right", "--for", "1.03s"],
        ["press", "select"],
      ],
      "r1c14"
    ),
    (
      "media-remote",
      [["press", "down"], ["hold", "right", "--for", "0.83s"], ["press", "select"]],
      "r1c8"
    ),
    (
      "gamepad", [["hold", "right", "--for", "0.73s"], ["press", "down"], ["press", "select"]],
      "r1c6"
    ),
  ]

  /// Runs `commands` against a fresh broker and headless screen on a 3 × 30 grid; returns the
  /// frame in which the selection activated an item, and every focused item in order.
  func outcome(_ commands: [[String]]) throws -> (activated: Frame, visited: [String]) {
    let stack = try Stack(.ipc)
    let screen = try stack.screen(["--layout", try stack.layoutFile(rows: 3, columns: 30)])
    _ = try screen.waitForFrame("first frame") { $0.focused == "r0c0" }
    for command in commands {
      let run = try stack.remote(command)
      #expect(run.status == 0, "\(command): \(run.errors)")
    }
    let activated = try screen.waitForFrame("the selection's activation") {
      $0.events.contains { $0.hasPrefix("activated:") }
    }
    var visited: [String] = []
    for frame in screen.frames {
      if let focused = frame.focused, visited.last != focused { visited.append(focused) }
    }
    return (activated.frame, visited)
  }

  @Test("a replay does what the equivalent commands do", arguments: cases.map(\.0))
  func replayMatchesCommands(name: String) throws {
    let (_, commands, selected) = try #require(Self.cases.first { $0.0 == name })
    let replayed = try outcome([["device", "--replay", Self.recording(name)]])
    let commanded = try outcome(commands)
    #expect(replayed.activated.focused == commanded.activated.focused)
    #expect(replayed.activated.events == commanded.activated.events)
    #expect(replayed.activated.states == commanded.activated.states)
    #expect(replayed.visited.last == commanded.visited.last)
    // The hold repeated as many times as its length says, and select activated that item.
    #expect(replayed.activated.focused == selected, "\(replayed.visited)")
    #expect(replayed.activated.events.contains("activated:\(selected)"), "\(replayed.activated)")
  }

  @Test(
    "a mouse recording moves the pointer onto a poster (focused, pointer on it) and its button activates it"
  )
  func mouseMovesThePointer() throws {
    let stack = try Stack(.ipc)
    let file = try stack.directory.write("row.json", PointerAcrossProcessesTests.layout)
    let screen = try stack.screen(["--layout", file])
    let first = try screen.waitForFrame("first frame") { $0.focused == "p0" }
    // Five frames of −100, +4 counts from the canvas centre (960, 540): (460, 560), on p1.
    let run = try stack.remote(["device", "--replay", Self.recording("mouse")])
    #expect(run.status == 0, "\(run.errors)")
    let pointed = try screen.waitForFrame(from: first.index, "p1 focused by the mouse") {
      $0.focused == "p1" && PointerAcrossProcessesTests.pointer($0)?["target"] as? String == "p1"
    }
    let shown = try #require(PointerAcrossProcessesTests.pointer(pointed.frame))
    #expect(shown["visible"] as? Bool == true, "\(pointed)")
    _ = try screen.waitForFrame(from: pointed.index, "the button's click activating p1") {
      $0.events.contains("activated:p1")
    }
    // As the touch surface the same motion is a swipe: focus moves, no pointer is shown.
    let swiped = try Stack(.ipc)
    let second = try swiped.screen([
      "--layout", try swiped.directory.write("row.json", PointerAcrossProcessesTests.layout),
    ])
    _ = try second.waitForFrame("first frame") { $0.focused == "p0" }
    let touch = try swiped.remote([
      "device", "--replay", Self.recording("mouse"), "--pointer-model", "touch-surface",
    ])
    #expect(touch.status == 0, "\(touch.errors)")
    // A left swipe from p0 stays there (nothing to its left); the click selects p0, not p1.
    let clicked = try second.waitForFrame("the click as select, on p0") {
      $0.events.contains("activated:p0")
    }
    #expect(
      PointerAcrossProcessesTests.pointer(clicked.frame)?["visible"] as? Bool != true,
      "\(clicked)")
  }

  @Test("a malformed recording is refused with its line, before connecting")
  func malformed() throws {
    let stack = try Stack(.ipc)
    let bad = try stack.directory.write(
      "bad.evemu", "# EVEMU 1.3\nN: pad\nE: 0.000001 0001 0130\n")
    let run = try stack.remote(["device", "--replay", bad])
    #expect(run.status != 0)
    #expect(
      run.errors.joined().contains("line 3: E: takes a time, a type, a code and a value"),
      "\(run.errors)")
  }
}
