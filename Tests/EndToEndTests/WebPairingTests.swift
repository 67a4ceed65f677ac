import Foundation
import TestSupport
import Testing

/// Pairing with the web renderer: the PIN overlay appears on the page (read by headless
/// Chromium), the PIN read from the page pairs the remote, and the overlay goes away.
@Suite("Pairing shown by the web renderer", .serialized)
struct WebPairingTests {
  /// The text of `<div id="pin">…</div>` in a dumped DOM.
  static func pin(in dom: String) -> String? {
    guard let start = dom.range(of: #"<div id="pin">"#) else { return nil }
    let rest = dom[start.upperBound...]
    guard let end = rest.range(of: "</div>") else { return nil }
    return String(rest[..<end.lowerBound])
  }

  /// The opening tag of the pairing overlay.
  static func overlayTag(in dom: String) -> String? {
    guard let start = dom.range(of: #"<div id="pairing""#) else { return nil }
    let close = dom[start.upperBound...].firstIndex(of: ">") ?? dom.endIndex
    return String(dom[start.lowerBound..<close])
  }

  @Test(
    "the page shows the PIN while a remote pairs; the PIN read from the page pairs it; then the overlay hides",
    .enabled(if: WebScreenTests.chromium != nil || WebScreenTests.browserRequired))
  func pairFromThePage() throws {
    let stack = try SecureStack()
    let browser = WebScreenTests()
    let layout = try stack.directory.write(
      "grid.json", TestLayouts.gridJSON(rows: 2, columns: 3))
    let web = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      [
        "--layout", layout, "--renderer", "web", "--listen", "127.0.0.1:0", "--state-dir",
        stack.directory.path + "/screen", "--broker-key", try stack.brokerKey(),
      ] + stack.endpointArguments, environment: stack.environment)
    let line = try web.waitForLine(timeout: 20, "the web renderer's listening line") {
      $0.hasPrefix("tenfoot-screen web http://127.0.0.1:")
    }
    let url = String(line.line.dropFirst("tenfoot-screen web ".count))
    let input = Pipe()
    let pair = try stack.remote(
      ["pair", "--name", "couch", "--timeout", "5"], name: "couch",
      stdin: input.fileHandleForReading)
    try web.waitForErrorLine(timeout: 15, "the screen receiving the pairing prompt") {
      $0.contains("pairing prompt") && $0.contains("pairing.active=true")
    }
    let shown = try browser.dumpDOM(url, in: stack.directory) { Self.pin(in: $0)?.count == 6 }
    let overlay = try #require(Self.overlayTag(in: shown))
    #expect(!overlay.contains("hidden"), "the overlay shows while pairing: \(overlay)")
    #expect(shown.contains("“couch” wants to pair"), "the remote's name is shown")
    let pin = try #require(Self.pin(in: shown), "no PIN in the page")
    #expect(pin.count == 6 && pin.allSatisfy(\.isNumber), "a 6-digit PIN: \(pin)")

    input.fileHandleForWriting.write(Data((pin + "\n").utf8))
    try input.fileHandleForWriting.close()
    #expect(try pair.waitForExit(timeout: 30) == 0, "pairing failed: \(pair.errors)")
    try web.waitForErrorLine(timeout: 15, "the prompt withdrawn") {
      $0.contains("pairing prompt") && $0.contains("pairing.active=false")
    }
    let after = try browser.dumpDOM(url, in: stack.directory) {
      $0.contains(#"id="item-r0c0""#) && Self.overlayTag(in: $0)?.contains("hidden") == true
    }
    #expect(after.contains(#"id="item-r0c0""#), "the page is connected")
    let gone = try #require(Self.overlayTag(in: after))
    #expect(gone.contains("hidden"), "the overlay hides after pairing: \(gone)")

    // The remote paired with the page's PIN is let in.
    let press = try stack.remote(["press", "right"], name: "couch")
    #expect(try press.waitForExit(timeout: 20) == 0, "\(press.errors)")
    web.signal()
    _ = try web.waitForExit(timeout: 10)
  }
}
