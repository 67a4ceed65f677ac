import Foundation
import TestSupport
import Testing

/// What a person at the screen sees of pairing, on each renderer that draws it for a person:
/// the closed notice in a real terminal (tmux) and on the built-in web page, and the PIN and
/// the closed notice on a developer's own page (`--app`, drawn by `tenfoot.js`). A CURVE broker
/// with a data directory; pairing is closed by writing the guard file as ten wrong PINs leave
/// it (the broker takes the file within a second, as it does the operator's `pairing open`).
@Suite(
  "Pairing's PIN and closed notice on the terminal, the web page and your own page", .serialized)
struct PairingNoticeTests {
  static let closedLine = "Pairing is closed: too many wrong PINs"

  /// Writes the guard file as the tenth wrong PIN leaves it: closed.
  static func close(_ stack: SecureStack) throws {
    let closed = """
      {"version":1,"savedAt":\(Date().timeIntervalSince1970),"guardState":{"byAddress":\
      {"10.9.0.1":5,"10.9.0.2":5},"totalFailures":10,"closed":true}}
      """
    try Data(closed.utf8).write(
      to: URL(fileURLWithPath: stack.dataDirectory + "/pairing.json"), options: .atomic)
  }

  /// Opens pairing with the screen's own key and checks it said so.
  static func openAtScreen(_ stack: SecureStack) throws {
    let opened = try PairingReopenTests.openPairing(
      stack, stateDirectory: stack.directory.path + "/screen")
    #expect(opened.status == 0, "\(opened.output) \(opened.errors)")
  }

  /// A web screen (`--renderer web`) showing `what` (`--layout FILE` or `--app DIR`), with the
  /// key the broker allows, and the URL it prints.
  static func webScreen(_ stack: SecureStack, _ what: [String]) throws -> (ChildProcess, String) {
    let web = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      what + [
        "--renderer", "web", "--listen", "127.0.0.1:0", "--state-dir",
        stack.directory.path + "/screen", "--broker-key", try stack.brokerKey(), "--id", "main",
      ] + stack.endpointArguments, environment: stack.environment)
    let line = try web.waitForLine(timeout: 20, "the web renderer's listening line") {
      $0.hasPrefix("tenfoot-screen web http://127.0.0.1:")
    }
    return (web, String(line.line.dropFirst("tenfoot-screen web ".count)))
  }

  @Test(
    "the terminal screen draws the closed notice in its box, and takes it away when the screen opens pairing",
    .enabled(if: TerminalScreenTests.hasTmux, "needs tmux (scripts/bootstrap)"))
  func terminal() throws {
    let stack = try SecureStack()
    let layout = try stack.directory.write("grid.json", TestLayouts.gridJSON(rows: 2, columns: 3))
    let arguments =
      [
        TestEnvironment.binary("tenfoot-screen"), "--renderer", "terminal", "--layout", layout,
        "--state-dir", stack.directory.path + "/screen", "--broker-key", try stack.brokerKey(),
        "--id", "main",
      ] + stack.endpointArguments
    let command = arguments.map { "'\($0)'" }.joined(separator: " ") + Tmux.keepAlive
    let tmux = try Tmux(columns: 100, rows: 30, command: command, environment: stack.environment)
    defer { tmux.stop() }
    try tmux.waitFor("the grid drawn", timeout: 15) { $0.contains("Row 0 Col 0") }

    try Self.close(stack)
    let pane = try tmux.waitFor("the closed notice", timeout: 15) { $0.contains(Self.closedLine) }
    #expect(pane.contains("tenfoot-screen pairing open"), "the way to open it is shown:\n\(pane)")
    #expect(pane.contains("╔"), "drawn in a double-bordered box:\n\(pane)")

    try Self.openAtScreen(stack)
    try tmux.waitFor("the notice gone, the grid still there", timeout: 15) {
      !$0.contains(Self.closedLine) && !$0.contains("pairing open") && $0.contains("Row 0 Col 0")
    }
  }

  @Test(
    "the built-in web page shows the closed card in its pairing dialog, and hides it when the screen opens pairing",
    .enabled(if: WebAppTests.enabled))
  func webPage() async throws {
    let stack = try SecureStack()
    let layout = try stack.directory.write("grid.json", TestLayouts.gridJSON(rows: 2, columns: 3))
    let (web, url) = try Self.webScreen(stack, ["--layout", layout])
    defer { web.kill() }
    try Self.close(stack)
    let shared = Unchecked(value: stack)
    try await HeadlessChromium.withPage(url, profile: stack.directory.path + "/chromium") {
      devtools in
      let card = "document.getElementById('closed-card')"
      let shown = "\(card).checkVisibility() && !document.getElementById('pairing').hidden"
      try await devtools.waitFor("the closed card shown", shown)
      let text = try await devtools.evaluate("\(card).textContent")
      #expect((text as? String)?.contains(Self.closedLine) == true, "\(String(describing: text))")
      #expect(
        try await devtools.evaluate("document.getElementById('pin-card').hidden") as? Bool == true,
        "no PIN while nobody pairs")
      try Self.openAtScreen(shared.value)
      try await devtools.waitFor(
        "the dialog hidden",
        "!\(card).checkVisibility() && document.getElementById('pairing').hidden")
    }
  }

  @Test(
    "your own page (tenfoot.js) shows the PIN a remote pairs with, and the closed notice; a page that handles tenfoot:pairing draws its own",
    .enabled(if: WebAppTests.enabled))
  func ownPage() async throws {
    let stack = try SecureStack()
    let app = try WebAppTests.appDirectory(
      in: stack.directory.path,
      body: #"<div class="row" data-focus-group="row"><button data-focus-id="a">A</button>"#
        + #"<button data-focus-id="b">B</button></div>"#,
      script: """
        globalThis.pairings = [];
        document.addEventListener('tenfoot:pairing', (e) => {
          pairings.push(e.detail);
          if (globalThis.drawOwn) e.preventDefault();
        });
        """)
    let (web, url) = try Self.webScreen(stack, ["--app", app])
    defer { web.kill() }
    let shared = Unchecked(value: stack)
    try await HeadlessChromium.withPage(url, profile: stack.directory.path + "/chromium") {
      devtools in
      let stack = shared.value
      try await devtools.waitFor("A focused", "\(WebAppTests.state("a")) === 'focused'")
      let box = "document.querySelector('[data-tenfoot-pairing]')"

      // A remote pairs: the PIN it must type is on the page, and pairs it.
      let input = Pipe()
      let pair = try stack.remote(
        ["pair", "--name", "couch", "--timeout", "5"], name: "couch",
        stdin: input.fileHandleForReading)
      try await devtools.waitFor(
        "the PIN dialog",
        "\(box)?.checkVisibility() && !!\(box).querySelector('[data-tenfoot-pin]')")
      let pin = try #require(
        try await devtools.evaluate("\(box).querySelector('[data-tenfoot-pin]').textContent")
          as? String)
      #expect(pin.count == 6 && pin.allSatisfy(\.isNumber), "a 6-digit PIN: \(pin)")
      let dialog = try await devtools.evaluate("\(box).textContent") as? String ?? ""
      #expect(dialog.contains("“couch” wants to pair"), "\(dialog)")
      #expect(
        try await devtools.evaluate("\(box).getAttribute('role')") as? String == "dialog")
      input.fileHandleForWriting.write(Data((pin + "\n").utf8))
      try input.fileHandleForWriting.close()
      #expect(try pair.waitForExit(timeout: 30) == 0, "the page's PIN pairs: \(pair.errors)")
      try await devtools.waitFor("the dialog gone", "!\(box).checkVisibility()")
      let events = try await devtools.evaluate(
        "JSON.stringify(pairings.map((p) => [p.prompt && p.prompt.remote, p.closed]))")
      #expect(
        (events as? String)?.hasPrefix(#"[["couch",false]"#) == true
          && (events as? String)?.hasSuffix(#"[null,false]]"#) == true,
        "tenfoot:pairing came with the prompt, then without: \(String(describing: events))")

      // Pairing closed: the notice; then the page draws its own and tenfoot.js stays out.
      try Self.close(stack)
      try await devtools.waitFor(
        "the closed notice",
        "\(box).checkVisibility() && !!\(box).querySelector('[data-tenfoot-pairing-closed]')")
      try Self.openAtScreen(stack)
      try await devtools.waitFor("the notice gone", "!\(box).checkVisibility()")
      _ = try await devtools.evaluate("globalThis.drawOwn = true")
      try Self.close(stack)
      try await devtools.waitFor(
        "the page told pairing closed", "pairings.length > 0 && pairings.at(-1).closed === true")
      #expect(
        try await devtools.evaluate("\(box).checkVisibility()") as? Bool == false,
        "a page that called preventDefault() draws the notice itself")
    }
  }
}
