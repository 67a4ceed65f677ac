import Foundation
import TestSupport
import Testing

/// When a trial sends its SIGTERM.
enum StopMoment: CustomStringConvertible, Sendable {
  /// This many microseconds after the spawn (the delay is the trial's input, not a wait).
  case afterSpawn(microseconds: UInt32)
  /// The moment the process is seen (in `/proc/PID/status`) to change SIGTERM's disposition
  /// (default, ignored, caught) for the nth time: where a program arms its signal handling,
  /// and where a SIGTERM used to be lost (an ignored, unblocked signal is discarded).
  case dispositionChange(Int)
  /// The instant its ready output appears.
  case ready

  var description: String {
    switch self {
    case .afterSpawn(let microseconds): "\(microseconds) µs after spawn"
    case .dispositionChange(let count): "at SIGTERM disposition change \(count)"
    case .ready: "at the ready output"
    }
  }

  /// Every moment a trial set covers.
  static let all: [StopMoment] =
    [
      .afterSpawn(microseconds: 0), .afterSpawn(microseconds: 1000),
      .afterSpawn(microseconds: 5000),
    ]
    + [1, 1, 1, 2, 2, 2].map { .dispositionChange($0) } + Array(repeating: .ready, count: 3)
}

/// Reads SIGTERM's disposition in a process from `/proc/PID/status` fast enough to catch a
/// change within microseconds: one open descriptor, `pread`, and C string functions.
private final class DispositionProbe {
  private let descriptor: Int32
  private let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: 8192)

  init(pid: Int32) { descriptor = open("/proc/\(pid)/status", O_RDONLY) }

  deinit {
    if descriptor >= 0 { close(descriptor) }
    buffer.deallocate()
  }

  /// 0 default, 1 ignored, 2 caught (3 cannot happen); nil once the process is gone.
  func sigterm() -> Int? {
    guard descriptor >= 0 else { return nil }
    let count = pread(descriptor, buffer, 8191, 0)
    guard count > 0 else { return nil }
    buffer[count] = 0
    guard let ignored = strstr(buffer, "SigIgn:"), let caught = strstr(buffer, "SigCgt:") else {
      return nil
    }
    let bit = UInt64(1) << UInt64(SIGTERM - 1)
    let isIgnored = strtoull(ignored + 7, nil, 16) & bit != 0
    let isCaught = strtoull(caught + 7, nil, 16) & bit != 0
    return (isIgnored ? 1 : 0) | (isCaught ? 2 : 0)
  }
}

/// What `reach` found before it returned: the moment itself, or why it gave up waiting for a
/// disposition change (counting the changes it saw).
enum Reached: Equatable, CustomStringConvertible, Sendable {
  /// The moment asked for.
  case moment
  /// The process was ready first, after this many changes.
  case readyFirst(changes: Int)
  /// The process ended first.
  case ended(changes: Int)
  /// Five seconds passed first.
  case timedOut(changes: Int)

  var description: String {
    switch self {
    case .moment: "reached"
    case .readyFirst(let changes): "ready after \(changes) disposition changes"
    case .ended(let changes): "ended after \(changes) disposition changes"
    case .timedOut(let changes): "5 s passed after \(changes) disposition changes"
    }
  }
}

/// Returns at `moment` in the life of process `pid`, given how to tell it is ready, and says
/// whether the moment came; the caller then sends its SIGTERM. Spins on `/proc` for the
/// disposition-change moments: the gaps they aim at last a few milliseconds.
private func reach(_ moment: StopMoment, pid: Int32, ready: () throws -> Bool) throws -> Reached {
  switch moment {
  case .afterSpawn(let microseconds):
    if microseconds > 0 { usleep(microseconds) }
    return .moment
  case .dispositionChange(let wanted):
    let probe = DispositionProbe(pid: pid)
    var last = probe.sigterm()
    var changes = 0
    var spins = 0
    let deadline = Date().addingTimeInterval(5)
    // Until the nth change, the process ends, or it is ready (it changes nothing after that).
    while changes < wanted {
      guard last != nil else { return .ended(changes: changes) }
      guard Date() < deadline else { return .timedOut(changes: changes) }
      let now = probe.sigterm()
      if now != last {
        if now != nil { changes += 1 }
        last = now
      }
      spins += 1
      if spins % 64 == 0, try ready() { return .readyFirst(changes: changes) }
    }
    return .moment
  case .ready:
    let deadline = Date().addingTimeInterval(20)
    while try !ready() {
      guard Date() < deadline else {
        throw ChildProcessError(description: "process \(pid) was not ready within 20 s")
      }
      usleep(1000)  // There is no event for "the ready output appeared" here: poll it.
    }
    return .moment
  }
}

@Suite("SIGTERM is never lost, however soon after start-up it comes", .serialized)
struct SignalTests {
  /// What a trial saw.
  struct Outcome: CustomStringConvertible {
    let moment: StopMoment
    let reached: Reached
    let status: Int32
    let bySignal: Bool
    let wasReady: Bool
    var description: String {
      "\(moment) (\(reached)): \(bySignal ? "killed by signal" : "exit") \(status)\(wasReady ? " (was ready)" : "")"
    }
  }

  /// Runs every moment against fresh processes from `start`; each must end within 5 s.
  func trials(
    _ start: () throws -> ChildProcess, ready: (ChildProcess) -> Bool
  ) throws -> [Outcome] {
    try StopMoment.all.map { moment in
      let child = try start()
      let reached = try reach(moment, pid: child.pid) { ready(child) }
      child.signal(SIGTERM)
      let wasReady = ready(child)
      let status: Int32
      do {
        status = try child.waitForExit(timeout: 5)
      } catch {
        throw ChildProcessError(description: "SIGTERM \(moment) was lost: \(error)")
      }
      return Outcome(
        moment: moment, reached: reached, status: status, bySignal: child.endedBySignal,
        wasReady: wasReady)
    }
  }

  /// Every moment was reached, except that a process started by `SignalWatcher` never changes
  /// SIGTERM's disposition (it stays default and blocked, taken by `sigwait`): there a
  /// disposition-change trial must see the process ready with no change at all. A change
  /// would mean a handler or `SIG_IGN` is back, and with it the window where a SIGTERM is lost.
  func expectReached(_ outcomes: [Outcome], dispositionChanges: Bool) {
    for outcome in outcomes {
      if case .dispositionChange = outcome.moment, !dispositionChanges {
        #expect(outcome.reached == .readyFirst(changes: 0), "\(outcome)")
      } else {
        #expect(outcome.reached == .moment, "\(outcome)")
      }
    }
  }

  /// A clean stop (status 0) once ready; before that, a clean stop or the signal's default
  /// action (the process had not armed its shutdown yet): never anything else.
  func expectCleanOrDefault(_ outcomes: [Outcome]) {
    for outcome in outcomes {
      if outcome.wasReady {
        #expect(!outcome.bySignal && outcome.status == 0, "\(outcome)")
      } else {
        #expect(
          (!outcome.bySignal && outcome.status == 0)
            || (outcome.bySignal && outcome.status == SIGTERM), "\(outcome)")
      }
    }
  }

  @Test("test children start with no signal blocked, as a shell or systemd starts them")
  func childrenStartUnblocked() throws {
    let child = try ChildProcess("/bin/sleep", ["30"])
    defer { child.kill() }
    let blocked = try #require(SignalMask.blocked(pid: child.pid))
    #expect(blocked == 0, "the child blocks \(String(blocked, radix: 16))")
  }

  @Test("the broker stops on a SIGTERM sent at any moment of its start-up")
  func broker() throws {
    let directory = try TemporaryDirectory()
    let outcomes = try trials(
      {
        try ChildProcess(
          TestEnvironment.binary("tenfoot-broker"), [],
          environment: ["TENFOOT_RUNTIME_DIR": directory.path + "/run"])
      },
      ready: { $0.output.contains { $0.hasPrefix("tenfoot-broker ready") } })
    expectReached(outcomes, dispositionChanges: false)
    expectCleanOrDefault(outcomes)
  }

  @Test("a headless screen stops on a SIGTERM sent at any moment of its start-up")
  func headlessScreen() throws {
    let stack = try Stack(.ipc)
    let layout = try stack.layoutFile(rows: 2, columns: 2)
    let outcomes = try trials(
      { try stack.screen(["--layout", layout]) },
      ready: { $0.output.contains { Frame($0) != nil } })
    expectReached(outcomes, dispositionChanges: false)
    expectCleanOrDefault(outcomes)
  }

  @Test("a streaming remote script ends on a SIGTERM sent at any moment of its start-up")
  func remoteScript() throws {
    let stack = try Stack(.ipc)
    let screen = try stack.screen(["--layout", try stack.layoutFile(rows: 2, columns: 2)])
    try screen.waitForFrame("the screen's first frame") { $0.focused == "r0c0" }
    var inputs: [Pipe] = []
    defer { for pipe in inputs { try? pipe.fileHandleForWriting.close() } }
    let outcomes = try trials(
      {
        let input = Pipe()
        inputs.append(input)
        let remote = try ChildProcess(
          TestEnvironment.binary("tenfoot-remote"), ["script", "-"],
          environment: stack.environment, stdin: input.fileHandleForReading)
        // The remote reads this once connected; its answer is the ready output.
        input.fileHandleForWriting.write(Data("right\n".utf8))
        return remote
      },
      ready: { !$0.output.isEmpty })
    expectReached(outcomes, dispositionChanges: false)
    // The remote has no shutdown to run: SIGTERM's default action ends it, whenever it comes.
    for outcome in outcomes {
      #expect(outcome.bySignal && outcome.status == SIGTERM, "\(outcome)")
    }
  }

  @Test("the terminal screen stops on SIGTERM at any moment and leaves the terminal restored")
  func terminalScreen() throws {
    try #require(TerminalScreenTests.hasTmux, "tmux is not installed: run scripts/bootstrap")
    let stack = try Stack(.ipc)
    let layout = try stack.layoutFile(rows: 2, columns: 2)
    let moments: [StopMoment] = [
      .afterSpawn(microseconds: 0), .dispositionChange(1), .ready, .ready,
    ]
    for (index, moment) in moments.enumerated() {
      let pidFile = stack.directory.path + "/screen-\(index).pid"
      let modes = stack.directory.path + "/stty-\(index)"
      // The inner shell writes its pid and becomes the screen, so the pid is the screen's.
      let command =
        "sh -c 'echo $$ > \(pidFile); exec \(TestEnvironment.binary("tenfoot-screen")) "
        + "--renderer terminal --layout \(layout)'; status=$?; stty -a > \(modes); "
        + "echo screen-exited-$status" + Tmux.keepAlive
      let tmux = try Tmux(columns: 80, rows: 24, command: command, environment: stack.environment)
      defer { tmux.stop() }
      var pid: Int32 = 0
      let deadline = Date().addingTimeInterval(10)
      while pid == 0 {
        if let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
          let number = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
          pid = number
        } else {
          try #require(Date() < deadline, "the pane never started the screen")
          usleep(200)  // The pane's shell writes the file; there is no event to wait on.
        }
      }
      // Ready: the first frame is on the pane (a capture costs a tmux client, so only this
      // moment looks at it).
      let isReady = { () throws -> Bool in
        if case .ready = moment { return try tmux.capture().contains("▶ Row 0 Col 0") }
        return false
      }
      // The raw terminal's guard installs a SIGTERM handler: the first change is reachable.
      let reached = try reach(moment, pid: pid, ready: isReady)
      #expect(reached == .moment, "\(moment): \(reached)")
      kill(pid, SIGTERM)
      let pane = try tmux.waitFor("the screen to exit after SIGTERM \(moment)", timeout: 5) {
        $0.contains("screen-exited-")
      }
      if case .ready = moment {
        #expect(pane.contains("screen-exited-0"), "\(moment): \(pane)")
      } else {
        #expect(
          pane.contains("screen-exited-0") || pane.contains("screen-exited-143"),
          "\(moment): \(pane)")
      }
      #expect(try tmux.pane("alternate_on") == "0", "\(moment): the alternate screen was left")
      let stty = try String(contentsOfFile: modes, encoding: .utf8)
      let flags = Set(stty.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }))
      #expect(
        flags.contains("icanon") && flags.contains("echo"), "\(moment): cooked mode:\n\(stty)")
    }
  }

  @Test("the interactive remote ends on SIGTERM and restores the terminal")
  func interactiveRemote() throws {
    try #require(TerminalScreenTests.hasTmux, "tmux is not installed: run scripts/bootstrap")
    let stack = try Stack(.ipc)
    let screen = try stack.screen(["--layout", try stack.layoutFile(rows: 2, columns: 2)])
    try screen.waitForFrame("the screen's first frame") { $0.focused == "r0c0" }
    let pidFile = stack.directory.path + "/remote.pid"
    let modes = stack.directory.path + "/stty-remote"
    let command =
      "sh -c 'echo $$ > \(pidFile); exec \(TestEnvironment.binary("tenfoot-remote"))'; "
      + "status=$?; stty -a > \(modes); echo remote-exited-$status" + Tmux.keepAlive
    let tmux = try Tmux(columns: 100, rows: 30, command: command, environment: stack.environment)
    defer { tmux.stop() }
    try tmux.waitFor("the remote's help header") { $0.contains("driving screen \"main\"") }
    #expect(try tmux.pane("mouse_any_flag") == "1", "the remote asks for mouse reports")
    let text = try String(contentsOfFile: pidFile, encoding: .utf8)
    let pid = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    kill(pid, SIGTERM)
    let pane = try tmux.waitFor("the remote to end on SIGTERM", timeout: 5) {
      $0.contains("remote-exited-")
    }
    #expect(pane.contains("remote-exited-143"), "killed by SIGTERM (128 + 15):\n\(pane)")
    let stty = try String(contentsOfFile: modes, encoding: .utf8)
    let flags = Set(stty.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }))
    #expect(flags.contains("icanon") && flags.contains("echo"), "cooked mode restored:\n\(stty)")
    #expect(try tmux.pane("mouse_any_flag") == "0", "the guard turned mouse reporting off")
    #expect(try tmux.pane("mouse_sgr_flag") == "0", "the guard turned SGR reports off")
  }
}
