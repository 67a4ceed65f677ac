import Foundation
import TestSupport
import Testing

/// A private tmux server (its own socket, so a person's sessions are never touched) with one
/// session, driven and read the way a person's terminal would be.
final class Tmux {
  let socket: String
  let session = "tf"
  private var stopped = false

  init(columns: Int, rows: Int, command: String, environment: [String: String]) throws {
    socket = "tenfoot-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    var arguments = ["new-session", "-d", "-s", session, "-x", "\(columns)", "-y", "\(rows)"]
    for (key, value) in environment.sorted(by: { $0.key < $1.key }) {
      arguments += ["-e", "\(key)=\(value)"]
    }
    try run(arguments + [command])
    try run(["set-option", "-t", session, "remain-on-exit", "on"])
  }

  deinit { stop() }

  /// A terminal screen (`tenfoot-screen --renderer terminal`) on `layout` in a new session of
  /// `columns` × `rows`, with `stack`'s environment.
  static func terminalScreen(
    layout: String, stack: Stack, columns: Int = 100, rows: Int = 30
  ) throws -> Tmux {
    try Tmux(
      columns: columns, rows: rows,
      command: "\(TestEnvironment.binary("tenfoot-screen")) --renderer terminal --layout \(layout)"
        + keepAlive, environment: stack.environment)
  }

  /// Ends a pane command so that the pane stays alive after it: when a pane dies, tmux writes
  /// its "Pane is dead" notice on a new bottom line, which scrolls the top line (where a test's
  /// "…-exited-N" usually is, after a full-screen program cleared the screen) out of view.
  /// `stop()` ends the sleep with the session.
  static let keepAlive = "; exec sleep 3600"

  /// Ends the session, and with it this private tmux server (idempotent). `kill-session`, not
  /// `kill-server`: with a dead pane kept by `remain-on-exit`, tmux 3.3a was seen to answer
  /// `kill-server` and keep running; the server exits by itself once it has no sessions.
  func stop() {
    guard !stopped else { return }
    stopped = true
    // What a test started from the pane's shell (`tenfoot-broker &` in a README block) could
    // outlive the session's hangup: every process under the panes is asked to end first.
    if let panes = try? run(["list-panes", "-s", "-t", session, "-F", "#{pane_pid}"]) {
      for pane in panes.split(separator: "\n").compactMap({ pid_t($0) }) {
        for process in Self.descendants(of: pane) { kill(process, SIGTERM) }
      }
    }
    do {
      try run(["kill-session", "-t", session])
    } catch {
      FileHandle.standardError.write(Data("tmux kill-session failed: \(error)\n".utf8))
    }
    // The exiting server leaves its socket file behind: remove it so tests leave no trace.
    let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
    unlink("\(directory)/tmux-\(getuid())/\(socket)")
  }

  /// Every process under `root` (children, theirs, and so on), read from `/proc`.
  static func descendants(of root: pid_t) -> [pid_t] {
    var children: [pid_t: [pid_t]] = [:]
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    for entry in entries {
      guard let pid = pid_t(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let end = stat.lastIndex(of: ")")
      else { continue }
      // After the command name in parentheses (which may hold spaces): state, then the parent.
      let fields = stat[stat.index(after: end)...].split(separator: " ")
      guard fields.count > 1, let parent = pid_t(fields[1]) else { continue }
      children[parent, default: []].append(pid)
    }
    var found: [pid_t] = []
    var next = children[root] ?? []
    while let pid = next.popLast() {
      found.append(pid)
      next += children[pid] ?? []
    }
    return found
  }

  /// Runs a tmux command against this server and returns its standard output.
  ///
  /// Spawned with posix_spawn and reaped with waitpid rather than Foundation's `Process`:
  /// `new-session` forks the tmux server, which inherits the client's streams (so pipes never
  /// reach EOF), and `Process.waitUntilExit` was seen never to return for that client. Output
  /// goes to a temporary file instead of a pipe for the same reason.
  @discardableResult
  func run(_ arguments: [String], timeout: Double = 10) throws -> String {
    let outputPath = "/tmp/tf-tmux-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    defer { unlink(outputPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ["tmux", "-L", socket] + arguments
    var cArguments = argv.map { strdup($0) } + [nil]
    defer { for pointer in cArguments { free(pointer) } }
    var pid: pid_t = 0
    // The tmux server forked here hands its mask to the pane's programs: start it with no
    // signal blocked, as a person's terminal would (see SignalMask).
    let spawned = SignalMask.withNothingBlocked {
      posix_spawnp(&pid, "tmux", &actions, nil, &cArguments, environ)
    }
    guard spawned == 0 else {
      throw ChildProcessError(
        description: "cannot start tmux: \(String(cString: strerror(spawned)))")
    }
    let deadline = Date().addingTimeInterval(timeout)
    var status: Int32 = 0
    while true {
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid { break }
      if reaped == -1 && errno != EINTR {
        throw ChildProcessError(description: "waitpid(tmux): \(String(cString: strerror(errno)))")
      }
      guard Date() < deadline else {
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        throw ChildProcessError(description: "tmux \(arguments.first ?? "") hung for \(timeout) s")
      }
      usleep(2_000)
    }
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    // WIFEXITED and WEXITSTATUS are macros Swift cannot import: decode the wait status by hand.
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
      throw ChildProcessError(
        description: "tmux \(arguments.joined(separator: " ")) failed (wait status \(status))")
    }
    return output.hasSuffix("\n") ? String(output.dropLast()) : output
  }

  /// What the pane shows now, as plain text.
  func capture() throws -> String { try run(["capture-pane", "-p", "-t", session]) }

  /// A tmux format variable of the pane, like `alternate_on` or `pane_dead`.
  func pane(_ variable: String) throws -> String {
    try run(["display-message", "-p", "-t", session, "#{\(variable)}"])
  }

  /// Polls the pane until `predicate` holds, up to `timeout` seconds. tmux has no event to wait
  /// on for "the pane now shows X", so this polls every 20 ms with a bounded deadline and fails
  /// with the last capture.
  @discardableResult
  func waitFor(_ what: String, timeout: Double = 10, _ predicate: (String) throws -> Bool) throws
    -> String
  {
    let deadline = Date().addingTimeInterval(timeout)
    var last = ""
    while Date() < deadline {
      last = try capture()
      if try predicate(last) { return last }
      usleep(20_000)
    }
    throw ChildProcessError(
      description: "timed out after \(timeout) s waiting for \(what); the pane shows:\n\(last)")
  }
}

@Suite("The terminal renderer in a real terminal (tmux)", .serialized)
struct TerminalScreenTests {
  static var hasTmux: Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/tmux")
    }
  }

  @Test(
    "the screen shows the focused title, follows the remote, and restores the terminal on Ctrl-C")
  func focusedTitleAndRestore() throws {
    try #require(Self.hasTmux, "tmux is not installed: run scripts/bootstrap")
    let stack = try Stack(.ipc)
    let layout = try stack.layoutFile(rows: 3, columns: 3)
    let modes = stack.directory.path + "/stty-after"
    // The pane runs a shell so that, after the screen exits, the tty's modes can be read back.
    let command =
      "\(TestEnvironment.binary("tenfoot-screen")) --renderer terminal --layout \(layout); "
      + "status=$?; stty -a > \(modes); echo screen-exited-$status" + Tmux.keepAlive
    let tmux = try Tmux(columns: 120, rows: 40, command: command, environment: stack.environment)
    defer { tmux.stop() }

    let first = try tmux.waitFor("the first frame with the focused title") {
      $0.contains("▶ Row 0 Col 0")
    }
    #expect(first.contains("Row 1 Col 2"), "unfocused titles are drawn too:\n\(first)")
    #expect(try tmux.pane("alternate_on") == "1", "the renderer uses the alternate screen")

    let press = try stack.remote(["press", "right", "down"])
    #expect(press.status == 0, "remote failed: \(press.errors)")
    try tmux.waitFor("focus to follow the remote to Row 1 Col 1") {
      $0.contains("▶ Row 1 Col 1")
    }

    try tmux.run(["send-keys", "-t", tmux.session, "C-c"])
    let after = try tmux.waitFor("the screen to exit on Ctrl-C") { $0.contains("screen-exited-") }
    #expect(after.contains("screen-exited-0") || after.contains("screen-exited-130"), "\(after)")
    #expect(try tmux.pane("alternate_on") == "0", "the alternate screen was left")
    let stty = try String(contentsOfFile: modes, encoding: .utf8)
    let flags = Set(stty.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }))
    #expect(flags.contains("icanon") && flags.contains("echo"), "cooked mode restored:\n\(stty)")
    #expect(try tmux.pane("cursor_flag") == "1", "the cursor is visible again")
  }

  @Test("the catalog at 80×24 draws every row heading in view, Classics included")
  func catalogHeadingsAt80x24() throws {
    try #require(Self.hasTmux, "tmux is not installed: run scripts/bootstrap")
    let stack = try Stack(.ipc)
    let tmux = try Tmux(
      columns: 80, rows: 24,
      command: "\(TestEnvironment.binary("tenfoot-screen")) --renderer terminal" + Tmux.keepAlive,
      environment: stack.environment)
    defer { tmux.stop() }
    // The first frame the broker publishes has the page scrolled 10 points for the focused
    // poster's lift: at 80×24 that put the Classics heading on its posters' top border.
    let pane = try tmux.waitFor("the catalog's first frame", timeout: 15) {
      $0.contains("▶ The Long Field (upnext-0)")
    }
    let lines = pane.split(separator: "\n", omittingEmptySubsequences: false)
    for title in ["Up Next", "Trending", "Classics", "Kids"] {
      #expect(
        lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(title) },
        "the \(title) heading is drawn:\n\(pane)")
    }
  }

  @Test("the interactive remote: arrows move, Return selects, Esc is Menu, touch mode, q quits")
  func interactiveRemote() throws {
    try #require(Self.hasTmux, "tmux is not installed: run scripts/bootstrap")
    let stack = try Stack(.ipc)
    let screen = try stack.screen(["--layout", try stack.layoutFile(rows: 3, columns: 3)])
    let first = try screen.waitForFrame("first frame") { $0.focused == "r0c0" }
    let command =
      "\(TestEnvironment.binary("tenfoot-remote")); echo remote-exited-$?" + Tmux.keepAlive
    let tmux = try Tmux(columns: 100, rows: 30, command: command, environment: stack.environment)
    defer { tmux.stop() }
    try tmux.waitFor("the remote's help header") { $0.contains("driving screen \"main\"") }

    try tmux.run(["send-keys", "-t", tmux.session, "Right", "Down", "Enter"])
    let selected = try screen.waitForFrame(from: first.index, "r1c1 activated by Return") {
      $0.focused == "r1c1" && $0.event?.contains("r1c1 selected") == true
    }
    try tmux.run(["send-keys", "-t", tmux.session, "Left"])
    let moved = try screen.waitForFrame(from: selected.index + 1, "r1c0 focused after Left") {
      $0.focused == "r1c0"
    }
    #expect(moved.frame.states["r1c1"] == "selected")

    try tmux.run(["send-keys", "-t", tmux.session, "Escape"])
    try tmux.waitFor("Escape to press Menu") { $0.contains("menu: back; focused r1c0") }

    // Touch mode: arrows slide a virtual finger; a third of the surface (0.7 ≥ 2/3) is a step.
    try tmux.run(["send-keys", "-t", tmux.session, "t"])
    try tmux.waitFor("touch mode on") { $0.contains("finger at 0.00, 0.00") }
    try tmux.run(["send-keys", "-t", tmux.session] + Array(repeating: "Right", count: 7))
    try tmux.waitFor("the finger's step") {
      $0.contains("focus r1c0 → r1c1 (right); focused r1c1 · finger at 0.70, 0.00")
    }
    try tmux.run(["send-keys", "-t", tmux.session, "t"])
    try tmux.waitFor("touch mode off") { $0.contains("touch mode off") }
    try tmux.run(["send-keys", "-t", tmux.session, "q"])
    let pane = try tmux.waitFor("the remote to quit on q") { $0.contains("remote-exited-") }
    #expect(pane.contains("remote-exited-0"), "\(pane)")
    #expect(pane.contains("right: focus r0c0 → r0c1 (right); focused r0c1"), "\(pane)")
    #expect(pane.contains("select: highlighted r1c1; activated r1c1; r1c1 selected; focused r1c1"))
  }
}
