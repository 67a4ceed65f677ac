import Foundation
import HummingbirdWSClient
import Logging
import Synchronization
import TestSupport
import Testing

/// The phone remote (`tenfoot-screen --phone-remote`), end to end with real broker and screen
/// processes and headless Chromium: the QR code on the screen's page, photographed and read by
/// `zbarimg`, opens a remote-only page; the page pairs its own key (listed by `remotes list`),
/// moves focus, is cut off by `remotes revoke`, and the code's token does not work twice.
@Suite("Phone remote by QR code", .serialized)
struct PhoneRemoteTests {
  static var enabled: Bool {
    (WebScreenTests.chromium != nil && QRCodeReader.zbarimg != nil)
      || WebScreenTests.browserRequired
  }

  @Test(
    "the screen's QR code decodes to a page that pairs as its own remote, moves focus, is listed, is cut off by revoke, and cannot be used twice",
    .enabled(if: enabled))
  func phoneRemote() async throws {
    let stack = try SecureStack()
    let layout = try stack.directory.write("grid.json", TestLayouts.gridJSON(rows: 2, columns: 3))
    let web = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      [
        "--layout", layout, "--renderer", "web", "--listen", "127.0.0.1:0", "--phone-remote",
        "--state-dir", stack.directory.path + "/screen", "--broker-key", try stack.brokerKey(),
      ] + stack.endpointArguments, environment: stack.environment)
    let line = try web.waitForLine(timeout: 20, "the web renderer's listening line") {
      $0.hasPrefix("tenfoot-screen web http://127.0.0.1:")
    }
    let screenURL = String(line.line.dropFirst("tenfoot-screen web ".count))
    // The phone's URL is printed once for the operator, token and all, next to the page's.
    let printed = try web.waitForLine(timeout: 20, "the phone remote's URL printed") {
      $0.hasPrefix("tenfoot-screen phone http://127.0.0.1:")
    }
    let printedURL = String(printed.line.dropFirst("tenfoot-screen phone ".count))
    // A headless mirror of the same session (the screen's allow-listed key) observes focus.
    let mirror = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      [
        "--mirror", "--renderer", "headless", "--state-dir", stack.directory.path + "/screen",
        "--broker-key", try stack.brokerKey(),
      ] + stack.endpointArguments, environment: stack.environment)
    let first = try mirror.waitForFrame(timeout: 20, "the mirror's first frame") {
      $0.focused == "r0c0"
    }

    let (browser, page) = try await HeadlessChromium.open(
      screenURL, profile: "\(stack.directory.path)/chromium-phone")
    defer { browser.kill() }
    let directory = stack.directory.path
    let steps = Steps()
    let webBox = Unchecked(value: web)
    let phoneURL = Mutex<String?>(nil)
    // A screenshot comes back in one large frame: the client's 16 KiB default would close.
    try await WebSocketClient.connect(
      url: page, configuration: .init(maxFrameSize: 1 << 24), logger: Logger(label: "test.cdp")
    ) {
      inbound, outbound, _ in
      let devtools = DevTools(inbound: inbound, outbound: outbound)
      try await devtools.waitFor(
        "the QR code on the screen's page",
        "!document.getElementById('phone-code').hidden && document.querySelector('#phone-qr svg') !== null"
      )
      // What a person sees: a screenshot of the page, read by zbarimg.
      let shot = try await devtools.call("Page.captureScreenshot", ["format": "png"])
      let png = try #require(
        (shot["data"] as? String).flatMap { Data(base64Encoded: $0) }, "no screenshot")
      let path = directory + "/screen.png"
      try png.write(to: URL(fileURLWithPath: path))
      let decoded = try #require(try QRCodeReader.decode(path), "zbarimg found no QR code")
      #expect(
        decoded.hasPrefix("http://127.0.0.1:") && decoded.contains("/phone?token="), "\(decoded)")
      phoneURL.withLock { $0 = decoded }
      steps.append("decoded")

      // The phone opens it: the remote-only page, no picture of the screen.
      try await devtools.call("Page.navigate", ["url": decoded])
      // Pairing the phone's key (a CPace exchange with the broker) may take a while on a busy
      // machine: the screen logs it when done.
      try webBox.value.waitForErrorLine(timeout: 30, "the phone's key paired") {
        $0.contains("phone paired")
      }
      try await devtools.waitFor(
        "the phone page connected",
        "document.getElementById('conn')?.textContent === 'connected as phone 1'")
      #expect(
        try await devtools.evaluate("document.getElementById('stage') === null") as? Bool == true,
        "the phone page shows no screen")
      #expect(
        try await devtools.evaluate("location.search.startsWith('?session=')") as? Bool == true,
        "the page swapped the used token for its session")
      steps.append("connected")
    }
    #expect(steps.all == ["decoded", "connected"])
    let url = try #require(phoneURL.withLock { $0 })
    #expect(url == printedURL, "the printed URL is the one the QR code holds")
    #expect(
      web.output.filter { $0.hasPrefix("tenfoot-screen phone ") }.count == 1,
      "printed once, not again for the fresh token: \(web.output)")
    // The token is a secret: the log (standard error, notice level) never holds it.
    let token = try #require(printedURL.components(separatedBy: "token=").last)
    #expect(!web.errors.contains { $0.contains(token) }, "the token in the log: \(web.errors)")

    // Its own key, on the broker's allow-list as a remote named "phone 1".
    let listed = try SecureStack.run(
      "tenfoot-broker", ["remotes", "list", "--data-dir", stack.dataDirectory])
    let entry = try #require(listed.first { $0.contains("  phone 1  ") }, "\(listed)")
    #expect(entry.contains("  remote  "), "\(entry)")
    let id = String(try #require(entry.split(separator: " ").first))

    // A press on the phone moves focus on the screen.
    try await WebSocketClient.connect(url: page, logger: Logger(label: "test.cdp")) {
      inbound, outbound, _ in
      let devtools = DevTools(inbound: inbound, outbound: outbound)
      try await devtools.key("ArrowRight", code: 39)
    }
    _ = try mirror.waitForFrame(from: first.index, timeout: 15, "the phone's press moved focus") {
      $0.focused == "r0c1"
    }
    try web.waitForErrorLine(timeout: 5, "the screen logging the listed key paired") {
      $0.contains("phone paired") && $0.contains(id)
    }

    // The token was used: a second open is refused with a page that says so.
    let second = try Self.get(url)
    #expect(second.status == 403, "a used token is refused: \(second.status)")
    #expect(second.body.contains("already used"), "\(second.body)")

    // Revoking the key cuts the phone off, and its page says so.
    _ = try SecureStack.run(
      "tenfoot-broker", ["remotes", "revoke", id, "--data-dir", stack.dataDirectory])
    try web.waitForErrorLine(timeout: 15, "the screen seeing the phone revoked") {
      $0.contains("phone revoked")
    }
    try await WebSocketClient.connect(url: page, logger: Logger(label: "test.cdp")) {
      inbound, outbound, _ in
      let devtools = DevTools(inbound: inbound, outbound: outbound)
      do {
        try await devtools.waitFor(
          "the phone page shows it is disconnected",
          "document.getElementById('conn').textContent.startsWith('disconnected: this phone')",
          // A page that lost its socket retries with backoff (up to 3 s apart): on a loaded
          // machine the answer that the session ended can take a few attempts.
          timeout: 30)
      } catch {
        // What the screen logged about the phone's sockets and session, or its crash report's
        // message and frames, says which side failed.
        Issue.record(
          "\(error)\nthe screen's log:\n\(webBox.value.errors.filter { $0.contains("phone") || $0.contains("rror") || $0.contains("rash") || $0.contains(" at /") }.suffix(60).joined(separator: "\n"))"
        )
        throw error
      }
      try await devtools.key("ArrowRight", code: 39)
    }
    let listedAfter = try SecureStack.run(
      "tenfoot-broker", ["remotes", "list", "--data-dir", stack.dataDirectory])
    #expect(!listedAfter.contains { $0.contains("  phone 1  ") }, "\(listedAfter)")
    web.signal()
    _ = try web.waitForExit(timeout: 10)
    mirror.signal()
    _ = try mirror.waitForExit(timeout: 10)
    // The press after the revoke never reached the broker: focus stayed on r0c1.
    #expect(
      !mirror.output.dropFirst(first.index).contains { Frame($0)?.focused == "r0c2" },
      "a revoked phone moved focus")
  }

  /// GETs `url` with curl: the status and the body.
  static func get(_ url: String) throws -> (status: Int, body: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = ["-s", "-w", "\n%{http_code}", url]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    var lines = String(decoding: data, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)
    let status = Int(lines.popLast() ?? "") ?? 0
    return (status, lines.joined(separator: "\n"))
  }
}
