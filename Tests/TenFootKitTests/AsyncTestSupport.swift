import Foundation
import Synchronization
import TestSupport
import Testing

/// A real broker process on ipc sockets in a runtime directory of its own.
final class Broker {
  let directory: TemporaryDirectory
  let environment: [String: String]
  private(set) var process: ChildProcess
  private(set) var control = ""
  private(set) var state = ""

  init() throws {
    directory = try TemporaryDirectory()
    environment = ["TENFOOT_RUNTIME_DIR": directory.path + "/run"]
    process = try ChildProcess(
      TestEnvironment.binary("tenfoot-broker"), [], environment: environment)
    try readEndpoints()
  }

  deinit { process.kill() }

  /// kill -9, then a new broker on the same endpoints (a crash and a supervisor's restart).
  func restart() throws {
    process.kill()
    process = try ChildProcess(
      TestEnvironment.binary("tenfoot-broker"), [], environment: environment)
    try readEndpoints()
  }

  private func readEndpoints() throws {
    let ready = try process.waitForLine("the broker's ready line") {
      $0.hasPrefix("tenfoot-broker ready")
    }
    for word in ready.line.split(separator: " ") {
      if word.hasPrefix("control=") { control = String(word.dropFirst("control=".count)) }
      if word.hasPrefix("state=") { state = String(word.dropFirst("state=".count)) }
    }
  }

  /// Runs `tenfoot-remote arguments` to its end, on a thread of its own (waiting for a process
  /// blocks: off the concurrency pool, which runs the app's events loop).
  func remote(_ arguments: [String]) async throws -> (
    status: Int32, output: [String], errors: [String]
  ) {
    let environment = environment
    return try await offPool {
      let remote = try ChildProcess(
        TestEnvironment.binary("tenfoot-remote"), arguments, environment: environment)
      let status = try remote.waitForExit(timeout: 15)
      return (status, remote.output, remote.errors)
    }
  }
}

/// Runs blocking `body` on a new thread and returns its result.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}

/// A test failure with its reason.
struct TestFailure: Error, CustomStringConvertible {
  let description: String
}

/// `operation`'s result, or a failure naming `what` after `seconds` (the operation, if it
/// never ends, is left behind: a waiter that cannot be cancelled must not hang the test).
func within<T: Sendable>(
  _ seconds: Double, _ what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  let once = Once<T>()
  return try await withCheckedThrowingContinuation { continuation in
    once.set(continuation)
    Task {
      do { once.finish(.success(try await operation())) } catch { once.finish(.failure(error)) }
    }
    Task {
      try await Task.sleep(for: .seconds(seconds))
      once.finish(.failure(TestFailure(description: "no \(what) within \(seconds) s")))
    }
  }
}

/// A continuation resumed by whichever finishes first.
final class Once<T: Sendable>: Sendable {
  private let pending = Mutex<CheckedContinuation<T, any Error>?>(nil)

  func set(_ continuation: CheckedContinuation<T, any Error>) {
    pending.withLock { $0 = continuation }
  }

  func finish(_ result: Result<T, any Error>) {
    pending.withLock { pending in
      defer { pending = nil }
      return pending
    }?.resume(with: result)
  }
}

/// What an events loop saw, as lines in order.
final class Seen: Sendable {
  let stream: AsyncStream<String>
  private let continuation: AsyncStream<String>.Continuation

  init() { (stream, continuation) = AsyncStream.makeStream(of: String.self) }

  func record(_ line: String) { continuation.yield(line) }
}

extension AsyncStream<String>.Iterator {
  /// Reads lines until one satisfies `predicate`; fails after `seconds` or when the lines end,
  /// with what was read.
  mutating func waitFor(
    _ what: String, seconds: Double = 10, seen: Seen, where predicate: (String) -> Bool
  ) async throws -> String {
    let token = "deadline \(UUID())"
    let timer = Task {
      try await Task.sleep(for: .seconds(seconds))
      seen.record(token)
    }
    defer { timer.cancel() }
    var read: [String] = []
    while let line = await next() {
      if line == token { throw TestFailure(description: "no \(what) within \(seconds) s: \(read)") }
      if line.hasPrefix("deadline ") { continue }
      read.append(line)
      if predicate(line) { return line }
    }
    throw TestFailure(description: "the events ended before \(what): \(read)")
  }
}
