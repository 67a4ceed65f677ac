import Foundation
import HummingbirdWSClient
import Logging
import Synchronization
import TestSupport
import Testing

/// The phone remote's sessions on one loop, end to end with real broker and screen processes
/// and WebSocket clients in place of phones' pages: three phones paired one after another are
/// served by one thread, and a phone whose broker went away for a while (its checks unanswered,
/// its connection replaced until the broker is back) still moves focus.
@Suite("Phone sessions on one loop", .serialized)
struct PhoneSessionLoopTests {
  @Test(
    "three paired phones share one thread; after the broker was away, a phone's press moves focus"
  )
  func sessionsShareOneLoop() async throws {
    let stack = try SecureStack()
    let layout = try stack.directory.write("grid.json", TestLayouts.gridJSON(rows: 2, columns: 3))
    let web = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      [
        "--layout", layout, "--renderer", "web", "--listen", "127.0.0.1:0", "--phone-remote",
        "--log-level", "debug", "--state-dir", stack.directory.path + "/screen",
        "--broker-key", try stack.brokerKey(),
      ] + stack.endpointArguments, environment: stack.environment)
    defer { web.kill() }
    try web.waitForLine(timeout: 20, "the web renderer's listening line") {
      $0.hasPrefix("tenfoot-screen web http://127.0.0.1:")
    }
    let mirror = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      [
        "--mirror", "--renderer", "headless", "--state-dir", stack.directory.path + "/screen",
        "--broker-key", try stack.brokerKey(),
      ] + stack.endpointArguments, environment: stack.environment)
    defer { mirror.kill() }
    try mirror.waitForFrame(timeout: 20, "the mirror's first frame") { $0.focused == "r0c0" }

    // Phones let in one after another (the broker pairs one key at a time), each with the
    // code's fresh token.
    var used: Set<String> = []
    var secrets: [String] = []
    for number in 1...3 {
      let url = try Self.freshCode(web, notIn: used)
      used.insert(url)
      secrets.append(try await Self.connect(url, expecting: "phone \(number)"))
    }
    let threads = Self.threadNames(web.pid)
    let phoneThreads = threads.filter { $0.hasPrefix("tenfoot-phone") }
    print("phone-session-threads total=\(threads.count) phone=\(phoneThreads.count)")
    #expect(phoneThreads.count == 1, "three sessions, one loop thread: \(threads.sorted())")

    // The broker goes away long enough for the phones' checks to go unanswered: they replace
    // their connections (as loop events) until it is back, then a press gets through.
    stack.stopBroker()
    try web.waitForErrorLine(timeout: 20, "a phone noticing the broker gone") {
      $0.contains("phone lost the broker")
    }
    let restarted = mirror.output.count
    try stack.startBrokerAgain()
    try web.waitForErrorLine(timeout: 30, "a phone connected again") {
      $0.contains("phone reconnected")
    }
    // The screen registers its session again before a press can reach it.
    try mirror.waitForFrame(from: restarted, timeout: 20, "the session back on the broker") {
      $0.focused == "r0c0"
    }
    let page = try #require(
      used.first.map { url in
        let base = url.components(separatedBy: "/phone?").first ?? url
        return base.replacingOccurrences(of: "http://", with: "ws://")
      })
    try await WebSocketClient.connect(
      url: "\(page)/phone/ws?session=\(secrets[1])", logger: Logger(label: "test.phone")
    ) { inbound, outbound, _ in
      var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
      let status = try #require(try await messages.next(), "no status from the session")
      guard case .text(let text) = status else {
        Issue.record("status not text")
        return
      }
      #expect(text.contains("\"connected\""), "phone 2 still connected: \(text)")
      try await outbound.write(.text("{\"key\":\"right\",\"phase\":\"down\"}"))
      try await outbound.write(.text("{\"key\":\"right\",\"phase\":\"up\"}"))
    }
    do {
      try mirror.waitForFrame(from: restarted, timeout: 20, "phone 2's press after the restart") {
        $0.focused == "r0c1"
      }
    } catch {
      Issue.record("the screen's log: \(web.errors.filter { $0.contains("phone") }.suffix(30))")
      throw error
    }
    web.signal()
    _ = try web.waitForExit(timeout: 10)
    #expect(
      !web.errors.contains { $0.contains("phone session ended") },
      "no session ended: \(web.errors.filter { $0.contains("phone") }.suffix(20))")
  }

  /// The phone URL of the newest code the screen logged (debug level) that is not in `used`.
  static func freshCode(_ web: ChildProcess, notIn used: Set<String>) throws -> String {
    let line = try web.waitForErrorLine(timeout: 20, "a fresh phone code") { line in
      guard line.contains("phone remote code with its token"), let url = url(in: line) else {
        return false
      }
      return !used.contains(url)
    }
    return try #require(url(in: line), "\(line)")
  }

  /// The `http://…/phone?token=…` URL in a log line.
  static func url(in line: String) -> String? {
    guard let start = line.range(of: "http://") else { return nil }
    let url = line[start.lowerBound...].prefix { !$0.isWhitespace && $0 != "\"" }
    return url.contains("/phone?token=") ? String(url) : nil
  }

  /// Opens the phone page's socket with `url`'s token, as the page does, and waits until its
  /// session is paired and connected as `name`; returns the session's secret.
  static func connect(_ url: String, expecting name: String) async throws -> String {
    let socket = url.replacingOccurrences(of: "http://", with: "ws://")
      .replacingOccurrences(of: "/phone?", with: "/phone/ws?")
    let found = Mutex<(secret: String?, seen: [String])>((nil, []))
    try await WebSocketClient.connect(url: socket, logger: Logger(label: "test.phone")) {
      inbound, _, _ in
      for try await message in inbound.messages(maxSize: 1 << 16) {
        guard case .text(let text) = message else { continue }
        found.withLock { $0.seen.append(text) }
        guard let data = text.data(using: .utf8),
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
          let phone = object["phone"] as? [String: Any]
        else { continue }
        if phone["state"] as? String == "connected" {
          #expect(phone["name"] as? String == name, "\(text)")
          found.withLock { $0.secret = phone["session"] as? String }
          return
        }
        if phone["state"] as? String != "pairing" { return }
      }
    }
    let (secret, seen) = found.withLock { ($0.secret, $0.seen) }
    return try #require(secret, "\(name) never connected: \(seen)")
  }

  /// The names of `pid`'s threads (`/proc/PID/task/*/comm`).
  static func threadNames(_ pid: Int32) -> [String] {
    let tasks = "/proc/\(pid)/task"
    let ids = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
    return ids.compactMap { id in
      (try? String(contentsOfFile: "\(tasks)/\(id)/comm", encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }
}
