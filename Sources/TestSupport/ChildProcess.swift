import CSpawn
import Foundation
import SystemCalls

/// A real child process for end-to-end tests: stdout and stderr are captured line by line by
/// reader threads, so a test can wait for a line (an event) with a deadline instead of sleeping.
/// The process is killed when the value is deinitialised.
///
/// Spawned with `posix_spawn` directly (CSpawn), not Foundation's `Process`, and reaped by a
/// thread of its own. On Linux, `Process` learns that a child ended when a socket the child
/// inherited reaches end-of-file, then calls a *blocking* `waitpid` on its one shared manager
/// thread. A daemon that closes every inherited descriptor at start-up (avahi-daemon does,
/// through libdaemon) made that thread block until the daemon ended, and no later child was
/// ever reaped: `waitUntilExit` hung on a zombie (issue 15's discovery test). Here every wait
/// is per child and bounded, and children inherit nothing but their standard streams.
public final class ChildProcess: @unchecked Sendable {
  // @unchecked Sendable is sound: the mutable state lives in `state`, guarded by its lock.
  private let state: State
  /// The process id.
  public let pid: Int32
  /// The command line, for failure messages.
  public let commandLine: String

  /// Starts `executable` with `arguments`; `environment` entries are added to the test's own.
  /// Standard input is `stdin` (the caller keeps its own handle), else /dev/null.
  public init(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:],
    stdin: FileHandle? = nil
  ) throws {
    commandLine = ([executable] + arguments).joined(separator: " ")
    let command = commandLine
    func failed(_ what: String, _ code: Int32) -> ChildProcessError {
      ChildProcessError(
        description: "\(what) failed: \(String(cString: strerror(code)))\ncommand: \(command)")
    }
    var out: [Int32] = [-1, -1]
    var err: [Int32] = [-1, -1]
    var result = tenfoot_pipe_cloexec(&out)
    guard result == 0 else { throw failed("pipe", result) }
    result = tenfoot_pipe_cloexec(&err)
    guard result == 0 else {
      close(out[0])
      close(out[1])
      throw failed("pipe", result)
    }
    let null = stdin == nil ? tenfoot_open_null() : -1
    let input = stdin?.fileDescriptor ?? null
    let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    var spawned: pid_t = 0
    result = Self.withCStrings([executable] + arguments) { argv in
      Self.withCStrings(variables.map { "\($0.key)=\($0.value)" }) { envp in
        tenfoot_spawn(&spawned, executable, argv, envp, input, out[1], err[1])
      }
    }
    close(out[1])
    close(err[1])
    if null >= 0 { close(null) }
    guard result == 0 else {
      close(out[0])
      close(err[0])
      throw failed("posix_spawn", result)
    }
    pid = spawned
    state = State()
    state.startReader(out[0], isStdout: true)
    state.startReader(err[0], isStdout: false)
    state.startReaper(pid)
  }

  deinit { kill() }

  private static func withCStrings<Result>(
    _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result
  ) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
  }

  /// Whether the process is still running (it has not exited or been killed).
  public var isRunning: Bool { state.locked { $0.status == nil } }

  /// Every stdout line so far.
  public var output: [String] { state.locked { $0.stdoutLines } }

  /// Every stderr line so far.
  public var errors: [String] { state.locked { $0.stderrLines } }

  /// Waits until a stdout line (searching from index `from`) satisfies `predicate`; returns
  /// its index and text. Throws with the captured output when the deadline passes or the
  /// process closes its output first.
  @discardableResult
  public func waitForLine(
    from start: Int = 0, timeout: Double = 10, _ what: String,
    where predicate: (String) -> Bool
  ) throws -> (index: Int, line: String) {
    let deadline = Date(timeIntervalSinceNow: timeout)
    state.condition.lock()
    defer { state.condition.unlock() }
    var checked = start
    while true {
      while checked < state.stdoutLines.count {
        if predicate(state.stdoutLines[checked]) { return (checked, state.stdoutLines[checked]) }
        checked += 1
      }
      if state.openStreams == 0 {
        throw failure("output ended before \(what)")
      }
      if !state.condition.wait(until: deadline) {
        throw failure("no \(what) within \(timeout) s")
      }
    }
  }

  /// Waits until a stderr line satisfies `predicate` (stdout and stderr are separate pipes, so
  /// a log line written before a frame may be read after it); returns the line.
  @discardableResult
  public func waitForErrorLine(
    timeout: Double = 10, _ what: String, where predicate: (String) -> Bool
  ) throws -> String {
    let deadline = Date(timeIntervalSinceNow: timeout)
    state.condition.lock()
    defer { state.condition.unlock() }
    var checked = 0
    while true {
      while checked < state.stderrLines.count {
        if predicate(state.stderrLines[checked]) { return state.stderrLines[checked] }
        checked += 1
      }
      if state.openStreams == 0 { throw failure("output ended before \(what)") }
      if !state.condition.wait(until: deadline) { throw failure("no \(what) within \(timeout) s") }
    }
  }

  /// Waits for the process to exit and its output to end, at most `timeout` seconds, and
  /// returns its exit status (or the number of the signal that ended it) with all its output
  /// read. Throws if it still runs at the deadline, or if it ended but something it started
  /// still holds its output open.
  public func waitForExit(timeout: Double = 10) throws -> Int32 {
    let deadline = Date(timeIntervalSinceNow: timeout)
    state.condition.lock()
    defer { state.condition.unlock() }
    while state.status == nil || state.openStreams > 0 {
      if !state.condition.wait(until: deadline) {
        guard let status = state.status else {
          throw failure("process did not exit within \(timeout) s")
        }
        throw failure(
          "process exited (\(status.description)) but its output was still open after "
            + "\(timeout) s: a process it started holds it")
      }
    }
    return state.status?.number ?? -1
  }

  /// Whether the process was ended by a signal (then `waitForExit` returned its number) rather
  /// than exiting. Only meaningful after ``waitForExit(timeout:)`` returned.
  public var endedBySignal: Bool { state.locked { $0.status?.bySignal ?? false } }

  /// Sends a signal (SIGTERM by default) if the process still runs. Under the lock the reaper
  /// takes to collect it, so the id cannot have been reused by another process.
  public func signal(_ number: Int32 = SIGTERM) {
    state.locked { if $0.status == nil { Foundation.kill(pid, number) } }
  }

  /// Kills the process (SIGKILL) if it still runs, and waits for it to be reaped.
  public func kill() {
    signal(SIGKILL)
    let deadline = Date(timeIntervalSinceNow: 30)
    state.condition.lock()
    while state.status == nil && state.condition.wait(until: deadline) {}
    state.condition.unlock()
  }

  private func failure(_ message: String) -> ChildProcessError {
    ChildProcessError(
      description: """
        \(message)
        command: \(commandLine)
        stdout (last 20 lines):
        \(state.stdoutLines.suffix(20).joined(separator: "\n"))
        stderr (last 20 lines):
        \(state.stderrLines.suffix(20).joined(separator: "\n"))
        """)
  }

  /// How the process ended.
  struct Status {
    let number: Int32
    let bySignal: Bool
    var description: String { bySignal ? "signal \(number)" : "status \(number)" }
  }

  /// What the reader and reaper threads share with the test; they keep it alive, not the
  /// ChildProcess, so deinit can kill and wait.
  final class State: @unchecked Sendable {
    // @unchecked Sendable is sound: every field is read and written under `condition`.
    let condition = NSCondition()
    var stdoutLines: [String] = []
    var stderrLines: [String] = []
    var openStreams = 2
    var status: Status?

    func locked<Result>(_ body: (State) -> Result) -> Result {
      condition.lock()
      defer { condition.unlock() }
      return body(self)
    }

    /// Reads `descriptor` (closing it at the end) into lines.
    func startReader(_ descriptor: Int32, isStdout: Bool) {
      let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
      let thread = Thread { [self] in
        var pending = Data()
        while true {
          let chunk = handle.availableData  // Blocks until data or EOF.
          if chunk.isEmpty { break }
          pending.append(chunk)
          while let newline = pending.firstIndex(of: 0x0A) {
            let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
            pending.removeSubrange(pending.startIndex...newline)
            locked {
              if isStdout { $0.stdoutLines.append(line) } else { $0.stderrLines.append(line) }
              $0.condition.broadcast()
            }
          }
        }
        try? handle.close()
        locked {
          if !pending.isEmpty {
            let line = String(decoding: pending, as: UTF8.self)
            if isStdout { $0.stdoutLines.append(line) } else { $0.stderrLines.append(line) }
          }
          $0.openStreams -= 1
          $0.condition.broadcast()
        }
      }
      thread.start()
    }

    /// Waits for `pid` to end on a thread of its own. It first waits leaving the zombie in
    /// place (WNOWAIT), then reaps it under the lock, so `signal` never hits a reused id.
    func startReaper(_ pid: Int32) {
      let thread = Thread { [self] in
        var info = siginfo_t()
        _ = SystemCall.retryingInterrupts { waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) }
        locked {
          var raw: Int32 = 0
          let result = SystemCall.retryingInterrupts { waitpid(pid, &raw, 0) }
          // WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift does not import (macros).
          let signalNumber = raw & 0x7f
          if result == -1 {
            $0.status = Status(number: -1, bySignal: false)
          } else if signalNumber != 0 && signalNumber != 0x7f {
            $0.status = Status(number: signalNumber, bySignal: true)
          } else {
            $0.status = Status(number: (raw >> 8) & 0xff, bySignal: false)
          }
          $0.condition.broadcast()
        }
      }
      thread.start()
    }
  }
}

/// A child process did not do what a test waited for.
public struct ChildProcessError: Error, CustomStringConvertible {
  /// What was expected and what the process printed.
  public let description: String
  /// Creates an error with a sentence for the test log.
  public init(description: String) { self.description = description }
}
