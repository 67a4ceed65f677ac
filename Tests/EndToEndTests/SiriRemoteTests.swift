import Foundation
import TestSupport
import Testing

/// The Siri Remote acceptance: gestures, holds, presses and typing through three processes.
@Suite("Siri Remote across processes", .serialized)
struct SiriRemoteTests {
  /// Two rows of 10 posters (`a0`…`a9` above `b0`…`b9`), a toggle, and a search field.
  static let layout = {
    var items: [String] = []
    for (row, prefix) in ["a", "b"].enumerated() {
      for column in 0..<10 {
        items.append(
          #"{"id": "\#(prefix)\#(column)", "frame": [\#(column * 180), \#(row * 200 + 200), 160, 180], "layers": [{"name": "back", "depth": 0}, {"name": "front", "depth": 1}]}"#
        )
      }
    }
    items.append(#"{"id": "search", "kind": "textField", "frame": [0, 0, 600, 100]}"#)
    return
      #"{"canvas": {"width": 1920, "height": 1080}, "initialFocus": "a0", "items": [\#(items.joined(separator: ", "))], "groups": [{"id": "top", "items": ["search"]}]}"#
  }()

  /// The column of a poster id (`a7` → 7).
  static func column(_ id: String?) -> Int { Int(id?.dropFirst() ?? "") ?? -1 }

  func start() throws -> (Stack, ChildProcess, Int) {
    let stack = try Stack(.ipc)
    let file = try stack.directory.write("row.json", Self.layout)
    let screen = try stack.screen(["--layout", file])
    let first = try screen.waitForFrame("first frame") { $0.focused == "a0" }
    return (stack, screen, first.index)
  }

  @Test(
    "a fast swipe moves at least 3 items, a slow one 1 or 2, and a diagonal one stays in its row")
  func swipes() throws {
    let (stack, screen, _) = try start()
    let fast = try stack.remote(["swipe", "right", "--speed", "fast"])
    #expect(fast.status == 0, "\(fast.errors)")
    let afterFast = try #require(fast.output.first?.split(separator: " ").last.map(String.init))
    #expect(Self.column(afterFast) >= 3, "\(fast.output)")

    let slow = try stack.remote(["swipe", "left", "--speed", "slow"])
    let afterSlow = try #require(slow.output.first?.split(separator: " ").last.map(String.init))
    let moved = Self.column(afterFast) - Self.column(afterSlow)
    #expect((1...2).contains(moved), "\(slow.output)")

    // A long diagonal: 1.6 across and 0.7 down, more than a vertical step (0.5) on its own.
    // Horizontal dominates, so the row never changes.
    let before = screen.frames.count
    let diagonal = try stack.remote([
      "swipe", "left", "--velocity", "1", "--distance", "1.6", "--drift", "0.7",
    ])
    #expect(diagonal.status == 0, "\(diagonal.errors)")
    #expect(diagonal.output.first?.contains("(left)") == true, "\(diagonal.output)")
    #expect(diagonal.output.first?.contains("(down)") == false, "\(diagonal.output)")
    let frames = screen.frames.dropFirst(before)
    #expect(frames.allSatisfy { $0.focused?.hasPrefix("a") == true }, "\(frames)")
  }

  @Test("a drag tilts the focused item while the finger rests, and it eases back after lift-off")
  func dragTilts() throws {
    let (stack, screen, start) = try start()
    let drag = try stack.remote(["drag", "--to", "0.2,0"])
    #expect(drag.status == 0, "\(drag.errors)")
    let tilted = try screen.waitForFrame(from: start, "a tilted frame") {
      ($0.rotateY ?? 0) > 0.5 && $0.focused == "a0"
    }
    // The remote says what the screen shows while the finger rests: the tilt, not "no effect".
    let line = try #require(drag.output.first, "drag printed nothing")
    #expect(drag.output.count == 1, "\(drag.output)")
    #expect(line.hasPrefix("drag: tilted a0 rotateX 0.0°, rotateY "), "\(line)")
    #expect(line.hasSuffix("°; focused a0"), "\(line)")
    let printed = line.split(separator: " ").first { $0.hasSuffix("°;") }.flatMap {
      Double($0.dropLast(2))
    }
    let angle = try #require(printed, "no angle in \(line)")
    #expect(angle > 0.5, "\(line)")
    // The screen showed that tilt while the finger rested.
    _ = try screen.waitForFrame(from: start, "a frame with the printed tilt") {
      abs(($0.rotateY ?? 0) - angle) < 0.1 && $0.focused == "a0"
    }
    _ = try screen.waitForFrame(from: tilted.index, "the tilt back at rest") {
      $0.rotateY == 0 && $0.focused == "a0"
    }
  }

  @Test("holding right for 2 s repeats at the documented rate and bumps at the row's end")
  func holdRepeats() throws {
    let (stack, screen, _) = try start()
    let hold = try stack.remote(["hold", "right", "--for", "0.8s"])
    #expect(hold.status == 0, "\(hold.errors)")
    // 1 on press + repeats at 0.5, 0.55, …, 0.8 s = 1 + 7 = 8 moves (±1 for the last tick).
    let moves = hold.output.first?.components(separatedBy: "focus a").count ?? 0
    #expect((7...9).contains(moves - 1), "\(hold.output)")

    let toEnd = try stack.remote(["hold", "right", "--for", "2s"])
    #expect(toEnd.output.first?.hasSuffix("focused a9") == true, "\(toEnd.output)")
    #expect(toEnd.output.first?.contains("bump right") == true)
    _ = try screen.waitForFrame("a bump frame at the end") { $0.events.contains("bump") }
  }

  @Test("select: highlighted (scale below 1) while down, then focused and selected")
  func selectPress() throws {
    let (stack, screen, start) = try start()
    let hold = try stack.remote(["hold", "select", "--for", "300ms"])
    #expect(hold.status == 0, "\(hold.errors)")
    let pressed = try screen.waitForFrame(from: start, "highlighted frame") {
      $0.states["a0"] == "highlighted"
    }
    #expect((pressed.frame.scale ?? 1) < 1)
    let released = try screen.waitForFrame(from: pressed.index, "activated frame") {
      $0.events.contains("activated:a0")
    }
    #expect(released.frame.states["a0"] == "focused")
    _ = try stack.remote(["press", "right"])
    let moved = try screen.waitForFrame(from: released.index, "a0 selected") {
      $0.focused == "a1"
    }
    #expect(moved.frame.states["a0"] == "selected")
  }

  @Test("typing goes into a focused text field, and is refused with a typed error otherwise")
  func typing() throws {
    let (stack, screen, start) = try start()
    let refused = try stack.remote(["type", "star"])
    #expect(refused.status != 0)
    #expect(refused.errors.joined().contains("no_text_field"), "\(refused.errors)")
    let up = try stack.remote(["press", "up"])
    #expect(up.output == ["up: focus a0 → search (up); focused search (text field: type to edit)"])
    let typed = try stack.remote(["type", "star"])
    #expect(typed.status == 0, "\(typed.errors)")
    #expect(
      typed.output == [#"type: search text "star"; focused search (text field: type to edit)"#])
    _ = try screen.waitForFrame(from: start, "star in the frame") { $0.text["search"] == "star" }
  }
}
