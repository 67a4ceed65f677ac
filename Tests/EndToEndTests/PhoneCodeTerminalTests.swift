import Foundation
import HummingbirdWSClient
import LinuxFiles
import Logging
import TestSupport
import Testing

/// `tenfoot-screen --phone-remote` without the web renderer: the QR code drawn in half blocks in
/// a real terminal (tmux), read back from the pane's characters into modules and decoded by
/// `zbarimg`, as a phone's camera would read the screen; and in headless `--svg` frames, drawn
/// by Chromium and decoded from a screenshot.
@Suite("The phone remote's QR code in the terminal (tmux) and in SVG frames", .serialized)
struct PhoneCodeTerminalTests {
  static var enabled: Bool { TerminalScreenTests.hasTmux && QRCodeReader.zbarimg != nil }

  @Test(
    "the code in the pane decodes to the URL under it, which serves the phone page; a phone using the token gets a fresh code drawn",
    .enabled(if: enabled, "needs tmux and zbarimg (scripts/bootstrap)"))
  func codeInThePane() async throws {
    let stack = try SecureStack()
    let layout = try stack.directory.write("grid.json", TestLayouts.gridJSON(rows: 3, columns: 3))
    let arguments =
      [
        TestEnvironment.binary("tenfoot-screen"), "--renderer", "terminal", "--layout", layout,
        "--phone-remote", "--listen", "127.0.0.1:0", "--state-dir",
        stack.directory.path + "/screen", "--broker-key", try stack.brokerKey(),
      ] + stack.endpointArguments
    // Quoted for the pane's shell: a Z85 key holds characters like & ( ) < > $.
    let command =
      arguments.map { "'\($0)'" }.joined(separator: " ") + "; echo screen-exited-$?"
      + Tmux.keepAlive
    let tmux = try Tmux(columns: 140, rows: 50, command: command, environment: stack.environment)
    defer { tmux.stop() }

    let pane = try tmux.waitFor("the phone code and its URL", timeout: 20) {
      $0.contains("/phone?token=") && $0.contains("▶ Row 0 Col 0")
    }
    let (modules, url) = try #require(Self.phoneCode(in: pane), "no code found in:\n\(pane)")
    #expect(url.hasPrefix("http://127.0.0.1:"), "\(url)")
    let image = try stack.directory.write("pane-code.pbm", Self.pbm(modules))
    let decoded = try #require(try QRCodeReader.decode(image), "zbarimg read no code:\n\(pane)")
    #expect(decoded == url, "the code holds the URL shown under it")

    // The page server runs behind the terminal: the code opens the phone's page.
    let page = try PhoneRemoteTests.get(decoded)
    #expect(page.status == 200, "GET \(decoded): \(page.status)")
    #expect(page.body.contains("phone/ws"), "the remote-only page")

    // A phone's page connects with the token and uses it up: the screen draws a new code at
    // once (the page server wakes the terminal's loop), which decodes to the new URL.
    let socket = decoded.replacingOccurrences(of: "http://", with: "ws://")
      .replacingOccurrences(of: "/phone?", with: "/phone/ws?")
    try await WebSocketClient.connect(url: socket, logger: Logger(label: "test.phone")) {
      inbound, _, _ in
      var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
      _ = try await messages.next()  // The session's first status: the token is used.
    }
    let fresh = try tmux.waitFor("a fresh code after the token was used", timeout: 20) {
      guard let shown = Self.phoneCode(in: $0) else { return false }
      return shown.url != url
    }
    let (newModules, newURL) = try #require(Self.phoneCode(in: fresh))
    let newImage = try stack.directory.write("pane-code-2.pbm", Self.pbm(newModules))
    #expect(try QRCodeReader.decode(newImage) == newURL, "the new code holds the new URL")
    #expect(try PhoneRemoteTests.get(decoded).status == 403, "the used token is refused")

    try tmux.run(["send-keys", "-t", tmux.session, "C-c"])
    let after = try tmux.waitFor("the screen to exit on Ctrl-C") { $0.contains("screen-exited-") }
    #expect(after.contains("screen-exited-0") || after.contains("screen-exited-130"), "\(after)")
    // The first URL was printed before the renderer took the terminal: the normal screen,
    // back after the alternate one, still shows it (once; the fresh code's is not printed).
    let printed = after.split(separator: "\n").filter { $0.hasPrefix("tenfoot-screen phone ") }
    #expect(printed == ["tenfoot-screen phone \(url)"], "the printed URL:\n\(after)")
  }

  @Test(
    "headless --svg frames carry the code: Chromium draws a frame, zbarimg reads the URL written under it",
    .enabled(if: PhoneRemoteTests.enabled, "needs chromium and zbarimg (scripts/bootstrap)"))
  func codeInTheSVGFrames() async throws {
    let stack = try SecureStack()
    let layout = try stack.directory.write("grid.json", TestLayouts.gridJSON(rows: 3, columns: 3))
    let frames = stack.directory.path + "/svg"
    // Frame files are written in place, and the code reaches the renderer from the phone
    // server's thread, so the first frame may come without it: wait (inotify) for a frame
    // file closed after writing that carries the URL.
    try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
    let watcher = try DirectoryWatcher(directory: frames, reportingWrites: true)
    let screen = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      [
        "--layout", layout, "--renderer", "headless", "--svg", frames, "--phone-remote",
        "--listen", "127.0.0.1:0", "--state-dir", stack.directory.path + "/screen",
        "--broker-key", try stack.brokerKey(),
      ] + stack.endpointArguments, environment: stack.environment)
    try screen.waitForFrame(timeout: 20, "the first frame") { $0.focused == "r0c0" }
    var found: (url: String, file: String)?
    var written: [String] = []
    let deadline = Date().addingTimeInterval(20)
    while found == nil, Date() < deadline {
      for case .written(let name) in watcher.wait(milliseconds: 500) where found == nil {
        written.append(name)
        let path = frames + "/" + name
        let document = try String(contentsOfFile: path, encoding: .utf8)
        found = document.range(
          of: #"http://127\.0\.0\.1:[0-9]+/phone\?token=[0-9a-f]+"#, options: .regularExpression
        ).map { (String(document[$0]), path) }
      }
    }
    let (url, file) = try #require(
      found, "no frame with the phone URL within 20 s; frames written: \(written)")

    // What a person sees: Chromium draws the frame (1920 wide, the code in its top-right
    // corner, beyond the 1280-wide window) and zbarimg reads a screenshot of that corner.
    let shot = stack.directory.path + "/corner.png"
    try await HeadlessChromium.withPage(
      "file://" + file, profile: stack.directory.path + "/chromium"
    ) { devtools in
      try await devtools.waitFor("the frame drawn", "document.readyState === 'complete'")
      let result = try await devtools.call(
        "Page.captureScreenshot",
        [
          "format": "png", "captureBeyondViewport": true,
          "clip": ["x": 1600, "y": 0, "width": 330, "height": 300, "scale": 1],
        ])
      let png = try #require(
        (result["data"] as? String).flatMap { Data(base64Encoded: $0) }, "no screenshot")
      try png.write(to: URL(fileURLWithPath: shot))
    }
    #expect(try QRCodeReader.decode(shot) == url, "the drawn code holds the URL under it")
    #expect(try PhoneRemoteTests.get(url).status == 200, "the page server serves the phone page")
    // Standard output carries the frames: the URL is printed for the operator on standard
    // error, and only there holds its token.
    let printed = try screen.waitForErrorLine(timeout: 5, "the phone remote's URL printed") {
      $0.hasPrefix("tenfoot-screen phone ")
    }
    #expect(printed == "tenfoot-screen phone \(url)")
    let token = try #require(url.components(separatedBy: "token=").last)
    #expect(screen.errors.filter { $0.contains(token) } == [printed], "\(screen.errors)")
    screen.signal()
    _ = try screen.waitForExit(timeout: 10)
  }

  /// The code's modules (true: dark) and the URL under it, read from a pane: the panel is the
  /// block of half-block rows above the URL line, right-aligned, whose bottom row is all light
  /// (`█`, the quiet zone). Each character holds two modules, its light halves drawn.
  static func phoneCode(in pane: String) -> (modules: [[Bool]], url: String)? {
    let lines = pane.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
    guard let urlRow = lines.firstIndex(where: { String($0).contains("/phone?token=") }),
      urlRow > 0,
      let start = String(lines[urlRow]).range(of: "http://")
    else { return nil }
    let url = String(String(lines[urlRow])[start.lowerBound...]).trimmingCharacters(
      in: .whitespaces)
    let width = lines[urlRow - 1].reversed().prefix { $0 == "█" }.count
    guard width >= 21 else { return nil }
    let blocks: Set<Character> = ["█", "▀", "▄", " "]
    var top = urlRow - 1
    while top > 0, lines[top - 1].count >= width,
      lines[top - 1].suffix(width).allSatisfy(blocks.contains)
    {
      top -= 1
    }
    var modules: [[Bool]] = []
    for row in lines[top..<urlRow] {
      let cells = row.suffix(width)
      modules.append(cells.map { $0 == " " || $0 == "▄" })  // Upper half dark.
      modules.append(cells.map { $0 == " " || $0 == "▀" })  // Lower half dark.
    }
    return (modules, url)
  }

  /// A plain PBM (P1, 1 = black) of `modules`, 4 pixels a module, with 8 more light modules
  /// around them.
  static func pbm(_ modules: [[Bool]]) -> String {
    let scale = 4
    let margin = 8
    let width = (modules.first?.count ?? 0) + 2 * margin
    let height = modules.count + 2 * margin
    var text = "P1\n\(width * scale) \(height * scale)\n"
    for y in 0..<height {
      let row = (0..<width).map { x -> String in
        let (moduleX, moduleY) = (x - margin, y - margin)
        let dark =
          modules.indices.contains(moduleY) && modules[moduleY].indices.contains(moduleX)
          && modules[moduleY][moduleX]
        return String(repeating: dark ? "1 " : "0 ", count: scale)
      }.joined()
      text += String(repeating: row + "\n", count: scale)
    }
    return text
  }
}
