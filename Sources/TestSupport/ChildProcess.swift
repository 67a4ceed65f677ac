import Foundation

/// A real child process for end-to-end tests: stdout and stderr are captured line by line by
/// reader threads, so a test can wait for a line (an event) with a deadline instead of sleeping.
/// The process is killed when the value is deinitialised.
public final class ChildProcess: @unchecked Sendable {
  // @unchecked Sendable is sound: mutable state (`lines`, `exit`) is guarded by `condition`.
  private let process = Process()
  private let condition = NSCondition()
  private var stdoutLines: [String] = []
  private var stderrLines: [String] = []
  private var openStreams = 2
  /// The command line, for failure messages.
  public let commandLine: String

  /// Starts `executable` with `arguments`; `environment` entries are added to the test's own.
  public init(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:],
    stdin: FileHandle? = nil
  ) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = stdin ?? FileHandle.nullDevice
    commandLine = ([executable] + arguments).joined(separator: " ")
    // With no signal blocked, as a service manager or shell would start it (see SignalMask).
    try SignalMask.withNothingBlocked { try process.run() }
    startReader(out.fileHandleForReading, isStdout: true)
    startReader(err.fileHandleForReading, isStdout: false)
  }

  deinit { kill() }

  /// The process id.
  public var pid: Int32 { process.processIdentifier }

  /// Whether the process is still running (it has not exited or been killed).
  public var isRunning: Bool { process.isRunning }

  private func startReader(_ handle: FileHandle, isStdout: Bool) {
    let thread = Thread { [weak self] in
      var pending = Data()
      while true {
        let chunk = handle.availableData  // Blocks until data or EOF.
        guard let self else { return }
        if chunk.isEmpty { break }
        pending.append(chunk)
        while let newline = pending.firstIndex(of: 0x0A) {
          let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
          pending.removeSubrange(pending.startIndex...newline)
          self.condition.lock()
          if isStdout { self.stdoutLines.append(line) } else { self.stderrLines.append(line) }
          self.condition.broadcast()
          self.condition.unlock()
        }
      }
      guard let self else { return }
      self.condition.lock()
      if !pending.isEmpty {
        let line = String(decoding: pending, as: UTF8.self)
        if isStdout { self.stdoutLines.append(line) } else { self.stderrLines.append(line) }
      }
      self.openStreams -= 1
      self.condition.broadcast()
      self.condition.unlock()
    }
    thread.start()
  }

  /// Every stdout line so far.
  public var output: [String] {
    condition.lock()
    defer { condition.unlock() }
    return stdoutLines
  }

  /// Every stderr line so far.
  public var errors: [String] {
    condition.lock()
    defer { condition.unlock() }
    return stderrLines
  }

  /// Waits until a stdout line (searching from index `from`) satisfies `predicate`; returns
  /// its index and text. Throws with the captured output when the deadline passes or the
  /// process closes its output first.
  @discardableResult
  public func waitForLine(
    from start: Int = 0, timeout: Double = 10, _ what: String,
    where predicate: (String) -> Bool
  ) throws -> (index: Int, line: String) {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    var checked = start
    while true {
      while checked < stdoutLines.count {
        if predicate(stdoutLines[checked]) { return (checked, stdoutLines[checked]) }
        checked += 1
      }
      if openStreams == 0 {
        throw failure("output ended before \(what)")
      }
      if !condition.wait(until: deadline) {
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
    condition.lock()
    defer { condition.unlock() }
    var checked = 0
    while true {
      while checked < stderrLines.count {
        if predicate(stderrLines[checked]) { return stderrLines[checked] }
        checked += 1
      }
      if openStreams == 0 { throw failure("output ended before \(what)") }
      if !condition.wait(until: deadline) { throw failure("no \(what) within \(timeout) s") }
    }
  }

  /// Waits for the process to exit, at most `timeout` seconds, and returns its status with
  /// all its output read.
  public func waitForExit(timeout: Double = 10) throws -> Int32 {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    while openStreams > 0 {
      if !condition.wait(until: deadline) {
        condition.unlock()
        throw failure("process did not exit within \(timeout) s")
      }
    }
    condition.unlock()
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Whether the process was ended by a signal (then `waitForExit` returned its number) rather
  /// than exiting. Only meaningful after ``waitForExit(timeout:)`` returned.
  public var endedBySignal: Bool { process.terminationReason == .uncaughtSignal }

  /// Sends a signal (SIGTERM by default).
  public func signal(_ number: Int32 = SIGTERM) {
    if process.isRunning { Foundation.kill(process.processIdentifier, number) }
  }

  /// Kills the process (SIGKILL) if it still runs.
  public func kill() {
    if process.isRunning {
      Foundation.kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  private func failure(_ message: String) -> ChildProcessError {
    ChildProcessError(
      description: """
        \(message)
        command: \(commandLine)
        stdout (last 20 lines):
        \(stdoutLines.suffix(20).joined(separator: "\n"))
        stderr (last 20 lines):
        \(stderrLines.suffix(20).joined(separator: "\n"))
        """)
  }
}

/// A child process did not do what a test waited for.
public struct ChildProcessError: Error, CustomStringConvertible {
  /// What was expected and what the process printed.
  public let description: String
  /// Creates an error with a sentence for the test log.
  public init(description: String) { self.description = description }
}
