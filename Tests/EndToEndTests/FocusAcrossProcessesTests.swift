import Foundation
import TestSupport
import Testing

@Suite("Broker, screen and remote as separate processes", .serialized)
struct FocusAcrossProcessesTests {
  @Test(
    "3×3 script: right, right, down, select, left; then right, and right at the edge",
    arguments: Network.allCases)
  func threeByThree(_ network: Network) throws {
    let stack = try Stack(network)
    let screen = try stack.screen(["--layout", try stack.layoutFile(rows: 3, columns: 3)])
    let first = try screen.waitForFrame("first frame") { $0.focused == "r0c0" }
    #expect(first.frame.states.count == 9)
    #expect(first.frame.states["r0c0"] == "focused")

    let script = try stack.directory.write(
      "moves.txt", "# the acceptance script\nright\nright\n\ndown\nselect\nleft\n")
    let run = try stack.remote(["script", script])
    #expect(run.status == 0, "remote failed: \(run.errors)")
    #expect(run.output.count == 5)
    #expect(run.output.first == "right: focus r0c0 → r0c1 (right); focused r0c1")
    #expect(
      run.output[3] == "select: highlighted r1c2; activated r1c2; r1c2 selected; focused r1c2")
    #expect(run.output.last == "left: focus r1c2 → r1c1 (left); focused r1c1")

    let settled = try screen.waitForFrame(from: first.index, "r1c1 focused with r1c2 selected") {
      $0.focused == "r1c1" && $0.states["r1c2"] == "selected"
    }
    #expect(settled.frame.states["r1c1"] == "focused")
    #expect(settled.frame.states.values.filter { $0 == "focused" }.count == 1)

    let right = try stack.remote(["press", "right"])
    #expect(right.status == 0)
    #expect(right.output == ["right: focus r1c1 → r1c2 (right); focused r1c2"])
    let onEdge = try screen.waitForFrame(from: settled.index, "r1c2 focused") {
      $0.focused == "r1c2"
    }
    #expect(onEdge.frame.states["r1c2"] == "focused")

    let bump = try stack.remote(["press", "right"])
    #expect(bump.status == 0)
    #expect(bump.output == ["right: bump right: no item that way; focused r1c2"])
    let bumped = try screen.waitForFrame(from: onEdge.index + 1, "the bump frame") {
      $0.event?.contains("bump right") == true
    }
    #expect(bumped.frame.focused == "r1c2")
    #expect(bumped.frame.seq == onEdge.frame.seq + 1)
  }

  @Test(
    "a broker with two I/O threads (--io-threads 2) serves the screen and the remote the same",
    arguments: Network.allCases)
  func twoIOThreads(_ network: Network) throws {
    let stack = try Stack(network, brokerArguments: ["--io-threads", "2"])
    let screen = try stack.screen(["--layout", try stack.layoutFile(rows: 2, columns: 3)])
    let first = try screen.waitForFrame("first frame") { $0.focused == "r0c0" }
    let run = try stack.remote(["press", "right", "down"])
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.output.last == "down: focus r0c1 → r1c1 (down); focused r1c1", "\(run.output)")
    try screen.waitForFrame(from: first.index, "r1c1 focused") { $0.focused == "r1c1" }
    // libzmq names its I/O threads ZMQbg/IO/<n>.
    let tasks = "/proc/\(stack.broker.pid)/task"
    let names = try FileManager.default.contentsOfDirectory(atPath: tasks).compactMap {
      try? String(contentsOfFile: "\(tasks)/\($0)/comm", encoding: .utf8)
    }
    #expect(names.filter { $0.hasPrefix("ZMQbg/IO") }.count == 2, "\(names)")
  }

  @Test("a late screen shows the current focus at once, and a screen that misses a delta resyncs")
  func lateJoinerAndResync() throws {
    let stack = try Stack(.ipc)
    let owner = try stack.screen(["--layout", try stack.layoutFile(rows: 3, columns: 3)])
    try owner.waitForFrame("first frame") { $0.focused == "r0c0" }
    #expect(try stack.remote(["press", "right", "down"]).status == 0)
    try owner.waitForFrame("r1c1 focused on the owner") { $0.focused == "r1c1" }

    let late = try stack.screen(["--mirror"])
    let lateFirst = try late.waitForFrame("the late screen's first frame") { _ in true }
    #expect(lateFirst.index == 0)
    #expect(lateFirst.frame.focused == "r1c1", "the first frame of a late screen is the snapshot")
    let seq = lateFirst.frame.seq

    // This screen loses the next delta, as a lossy network or a full PUB queue would do.
    let lossy = try stack.screen(["--mirror", "--debug-drop-delta", "\(seq + 1)"])
    try lossy.waitForFrame("the lossy screen's snapshot") { $0.seq == seq }
    #expect(try stack.remote(["press", "left", "up"]).status == 0)
    let healed = try lossy.waitForFrame("the lossy screen caught up") { $0.focused == "r0c0" }
    #expect(healed.frame.seq == seq + 2)
    #expect(!lossy.frames.contains { $0.seq == seq + 1 }, "the dropped delta was never applied")
    try lossy.waitForErrorLine("the lossy screen's resync log line") {
      $0.contains("requesting snapshot") && $0.contains("sequence gap")
    }
    let lateHealed = try late.waitForFrame("the late screen followed") { $0.focused == "r0c0" }
    #expect(lateHealed.frame.seq == seq + 2)
  }

  @Test("after the broker is killed and restarted, the screen re-registers and follows again")
  func brokerRestart() throws {
    let stack = try Stack(.ipc)
    let screen = try stack.screen(["--layout", try stack.layoutFile(rows: 2, columns: 2)])
    let first = try screen.waitForFrame("first frame") { $0.focused == "r0c0" }
    #expect(try stack.remote(["press", "right"]).status == 0)
    let moved = try screen.waitForFrame(from: first.index, "r0c1 focused") { $0.focused == "r0c1" }

    try stack.restartBroker()
    // The new broker has a new epoch and no sessions: the screen notices (heartbeat or the
    // snapshot answer) and registers again the layout it showed, focus where it was.
    let fresh = try screen.waitForFrame(from: moved.index + 1, "a frame from the new broker") {
      $0.epoch != moved.frame.epoch
    }
    #expect(fresh.frame.seq == 1)
    #expect(fresh.frame.focused == "r0c1")
    let press = try stack.remote(["press", "down"])
    #expect(press.status == 0, "remote after restart: \(press.errors)")
    let followed = try screen.waitForFrame(from: fresh.index + 1, "r1c1 focused after restart") {
      $0.focused == "r1c1"
    }
    #expect(followed.frame.epoch == fresh.frame.epoch)
  }
}
