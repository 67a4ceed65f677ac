import Foundation
import TestSupport
import Testing

/// The README's commands, read from README.md and typed into real shells in tmux as a
/// newcomer would, so the README cannot drift from what the programs do. Only what differs
/// between this machine and the reader's is replaced, and each replacement is checked: the
/// `export PATH=…` line (the tests use the build under test), and in "Across machines" the
/// example host address and the values a reader copies from one command into the next.
@Suite("The README's commands, run as written", .serialized)
struct ReadmeTests {
  static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")

  /// The command lines of the `index`th ```sh block under `heading` (comment-only and empty
  /// lines left out; trailing comments kept: the shell ignores them as a reader's would).
  static func commands(under heading: String, block index: Int = 0) throws -> [String] {
    try block(under: heading, index: index).filter {
      !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("#")
    }
  }

  /// A shell in a private tmux session, with the built programs first on its PATH.
  static func shell(_ environment: [String: String], columns: Int = 160, rows: Int = 48) throws
    -> Tmux
  {
    // Set on the shell's command line: tmux starts the pane through the user's shell, whose
    // profile may set PATH again after tmux's `-e`.
    let path = TestEnvironment.binDirectory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    return try Tmux(
      columns: columns, rows: rows,
      command: "PATH='\(path)' PS1='$ ' bash --norc --noprofile" + Tmux.keepAlive,
      environment: environment)
  }

  /// Types `line` and Enter into `tmux`'s shell.
  static func type(_ line: String, into tmux: Tmux) throws {
    try tmux.run(["send-keys", "-t", tmux.session, "-l", line])
    try tmux.run(["send-keys", "-t", tmux.session, "Enter"])
  }

  @Test(
    "\"Running it by hand\": the broker, the terminal screen, one-shot presses, a swipe and the interactive remote",
    .enabled(if: TerminalScreenTests.hasTmux, "tmux is not installed: run scripts/bootstrap"))
  func byHand() throws {
    let directory = try TemporaryDirectory()
    let environment = [
      "TENFOOT_RUNTIME_DIR": directory.path + "/run",
      "TENFOOT_STATE_DIR": directory.path + "/state",
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "TERM": "xterm-256color",
    ]
    var first = try Self.commands(under: "## Running it by hand", block: 0)
    // The reader's PATH line points at the release build scripts/demo made; the test's PATH
    // already starts with the build under test.
    let path = first.removeFirst()
    #expect(path.hasPrefix(#"export PATH="$(swift build -c release --show-bin-path):$PATH""#))
    #expect(first.count == 2, "\(first)")

    let screenShell = try Self.shell(environment)
    defer { screenShell.stop() }
    // The broker, in the background of the first terminal; then the screen in front.
    let brokerLine = try #require(first.first { $0.hasPrefix("tenfoot-broker &") })
    try Self.type(brokerLine, into: screenShell)
    try screenShell.waitFor("the broker's ready line") {
      // Its own line, not the command's comment: only the real one has an epoch.
      $0.contains("tenfoot-broker ready control=ipc://") && $0.contains(" epoch=")
    }
    let screenLine = try #require(first.first { $0.hasPrefix("tenfoot-screen") })
    try Self.type(screenLine, into: screenShell)
    try screenShell.waitFor("the catalog on the terminal screen") {
      $0.contains("Up Next") && $0.contains("The Long Field")
    }

    let second = try Self.commands(under: "## Running it by hand", block: 1)
    let remoteShell = try Self.shell(environment, columns: 120, rows: 30)
    defer { remoteShell.stop() }
    for (index, line) in second.enumerated() {
      let marker = "readme-step-\(index)-exited-"
      if line.hasPrefix("tenfoot-remote ") && !line.hasPrefix("tenfoot-remote press")
        && !line.hasPrefix("tenfoot-remote swipe")
      {
        // The interactive remote: it draws its help, an arrow moves focus, q quits.
        try Self.type(line, into: remoteShell)
        try remoteShell.waitFor("the interactive remote's header") {
          $0.contains("driving screen \"main\"")
        }
        try remoteShell.run(["send-keys", "-t", remoteShell.session, "Left"])
        try remoteShell.waitFor("Left to move focus") { $0.contains("left: focus") }
        try remoteShell.run(["send-keys", "-t", remoteShell.session, "q"])
        // The shell's prompt back before typing on: bytes typed while the remote still reads
        // the terminal would be read with the q, and dropped when it quits.
        try remoteShell.waitFor("the interactive remote to quit") { pane in
          pane.split(separator: "\n").last { !$0.allSatisfy(\.isWhitespace) }?
            .trimmingCharacters(in: .whitespaces) == "$"
        }
        try Self.type("echo \(marker)$?", into: remoteShell)
      } else {
        // Typed as written (its comment too), then its status on a line of its own.
        try Self.type(line, into: remoteShell)
        try Self.type("echo \(marker)$?", into: remoteShell)
      }
      let pane = try remoteShell.waitFor("\(line) to finish", timeout: 15) {
        $0.contains(marker + "0")
          || $0.range(of: marker + "[1-9]", options: .regularExpression) != nil
      }
      #expect(pane.contains(marker + "0"), "\(line) failed:\n\(pane)")
      if line.hasPrefix("tenfoot-remote press down right right select") {
        #expect(pane.contains("activated"), "\(pane)")
        try screenShell.waitFor("the detail view the select opened") { $0.contains("Favourite") }
      }
      if line.hasPrefix("tenfoot-remote press menu") {
        #expect(pane.contains("menu: back"), "\(pane)")
      }
    }
    #expect(second.contains { $0.hasPrefix("tenfoot-remote press menu") })
    #expect(second.contains { $0.hasPrefix("tenfoot-remote swipe") })
  }

  /// The lines of the `index`th ```sh block under `heading`, comments included.
  static func block(under heading: String, index: Int = 0) throws -> [String] {
    let lines = try String(contentsOf: readme, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false
    ).map(String.init)
    let start = try #require(lines.firstIndex(of: heading), "README has no \(heading)")
    var blocks: [[String]] = []
    var current: [String]?
    for line in lines[(start + 1)...] {
      if line.hasPrefix("## ") { break }
      if current == nil, line == "```sh" {
        current = []
      } else if current != nil, line == "```" {
        blocks.append(current ?? [])
        current = nil
      } else if current != nil {
        current?.append(line)
      }
    }
    return try #require(index < blocks.count ? blocks[index] : nil, "no sh block #\(index)")
  }

  @Test(
    "\"Across machines\": broker, TV and laptop on three hosts (network namespaces), with the connection string and a PIN",
    .enabled(if: NamespaceNetwork.testsEnabled, "needs root and iproute2 (network namespaces)"),
    .enabled(if: TerminalScreenTests.hasTmux, "tmux is not installed: run scripts/bootstrap"))
  func acrossMachines() throws {
    try NamespaceNetwork.requireAvailable()
    let hosts = try NamespaceHosts(["broker", "tv", "laptop"], prefix: "tr")
    defer { hosts.remove() }
    let directory = try TemporaryDirectory()
    var shells: [String: Tmux] = [:]
    defer { for shell in shells.values { shell.stop() } }
    func shell(_ host: String) throws -> Tmux {
      if let shell = shells[host] { return shell }
      let environment = [
        "TENFOOT_RUNTIME_DIR": "\(directory.path)/\(host)/run",
        "TENFOOT_STATE_DIR": "\(directory.path)/\(host)/state",
        "TERM": "xterm-256color",
      ]
      let path = TestEnvironment.binDirectory + ":/usr/sbin:/usr/bin:/sbin:/bin"
      let shell = try Tmux(
        columns: 160, rows: 48,
        command: "/usr/sbin/ip netns exec \(hosts.namespace(host)) env PATH='\(path)' PS1='$ ' "
          + "bash --norc --noprofile" + Tmux.keepAlive,
        environment: environment)
      shells[host] = shell
      return shell
    }
    let exampleHost = "192.168.1.10"
    let brokerAddress = hosts.address("broker")
    var invite: String?
    var screenKey: String?
    var host = ""
    var step = 0
    /// Runs `line` in `host`'s shell and returns the pane once its status is printed (0).
    func run(_ line: String) throws -> String {
      let shell = try shell(host)
      step += 1
      let marker = "readme-step-\(step)-exited-"
      try Self.type(line, into: shell)
      try Self.type("echo \(marker)$?", into: shell)
      let pane = try shell.waitFor("\(line) on \(host)", timeout: 20) {
        $0.range(of: marker + "[0-9]", options: .regularExpression) != nil
      }
      #expect(pane.contains(marker + "0"), "\(line) failed on \(host):\n\(pane)")
      return pane
    }
    for var line in try Self.block(under: "## Across machines") {
      if line.hasPrefix("# on the broker host") { host = "broker" }
      if line.hasPrefix("# on the TV") { host = "tv" }
      if line.hasPrefix("# on a laptop") { host = "laptop" }
      if line.hasPrefix("#") || line.isEmpty { continue }
      // What a reader copies from one command into the next, and the example's address.
      if let invite {
        line = line.replacingOccurrences(of: "tenfoot://KEY@\(exampleHost):7700", with: invite)
      }
      if let screenKey { line = line.replacingOccurrences(of: "'KEY'", with: "'\(screenKey)'") }
      line = line.replacingOccurrences(of: exampleHost, with: brokerAddress)
      let command = line.components(separatedBy: " #").first ?? line
      #expect(!command.contains("KEY"), "a placeholder was not filled: \(line)")
      switch line {
      case let broker where broker.hasPrefix("tenfoot-broker --control"):
        try Self.type(broker, into: try shell(host))
        try shell(host).waitFor("the broker's ready line") {
          $0.contains("tenfoot-broker ready") && $0.contains(" epoch=")
        }
      case let command where command.hasPrefix("tenfoot-broker invite"):
        let pane = try run(command)
        let printed = pane.split(separator: "\n").map {
          $0.trimmingCharacters(in: .whitespaces)
        }.last { $0.hasPrefix("tenfoot://") }
        invite = try #require(printed, "invite printed no connection string:\n\(pane)")
        #expect(invite?.hasSuffix("@\(brokerAddress):7700") == true, "\(invite ?? "")")
      case "tenfoot-screen --print-key":
        let pane = try run(line)
        // The key's line (the shell echoes what is typed ahead, so it need not come next).
        screenKey = pane.split(separator: "\n").map {
          $0.trimmingCharacters(in: .whitespaces)
        }.first {
          $0.range(of: #"^[0-9a-zA-Z.:+=^!/*?&<>()\[\]{}@%$#-]{40}$"#, options: .regularExpression)
            != nil
        }
        #expect(screenKey != nil, "no Z85 key printed:\n\(pane)")
      case let command where command.hasPrefix("tenfoot-screen --broker"):
        try Self.type(command, into: try shell(host))
        try shell(host).waitFor("the catalog on the TV", timeout: 20) {
          $0.contains("Up Next") && $0.contains("The Long Field")
        }
      case let command where command.hasPrefix("tenfoot-remote pair"):
        let laptop = try shell(host)
        try Self.type(command, into: laptop)
        let tv = try #require(shells["tv"], "the README pairs before starting the TV's screen")
        let shown = try tv.waitFor("the PIN on the TV", timeout: 20) {
          $0.range(of: #"PIN  (\d )+\d"#, options: .regularExpression) != nil
        }
        let range = try #require(shown.range(of: #"PIN  (\d )+\d"#, options: .regularExpression))
        let pin = shown[range].dropFirst(5).filter(\.isNumber)
        try laptop.waitFor("the PIN prompt") { $0.contains("PIN") }
        try Self.type(String(pin), into: laptop)
        step += 1
        try Self.type("echo readme-step-\(step)-exited-$?", into: laptop)
        let pane = try laptop.waitFor("pairing to end", timeout: 20) {
          $0.range(of: "readme-step-\(step)-exited-[0-9]", options: .regularExpression) != nil
        }
        #expect(pane.contains("readme-step-\(step)-exited-0"), "pairing failed:\n\(pane)")
      default:
        let pane = try run(line)
        if line.hasPrefix("tenfoot-remote press right") {
          #expect(pane.contains("right: focus"), "\(pane)")
          try #require(shells["tv"]).waitFor("the TV after the press") { $0.contains("focused") }
        }
      }
    }
    #expect(invite != nil && screenKey != nil, "the README lost a step")
  }

  @Test(
    "\"Your own app\": the template built as written runs in the terminal and opens a page on select",
    .enabled(if: AppTemplateTests.template != nil, "TENFOOT_APP_TEMPLATE is not set"),
    .enabled(if: TerminalScreenTests.hasTmux, "tmux is not installed: run scripts/bootstrap"))
  func ownApp() throws {
    let lines = try Self.commands(under: "## Your own app")
    #expect(lines.first == "swift build --package-path examples/swift-app", "\(lines)")
    // The build line is what scripts/test runs before the tests (TENFOOT_APP_TEMPLATE is its
    // product); the run line must name that product.
    let run = try #require(lines.dropFirst().first)
    let binary = try #require(run.split(separator: " ").first.map(String.init))
    let template = try AppTemplateTests.requireTemplate()
    let repository = Self.readme.deletingLastPathComponent().path
    let named = URL(fileURLWithPath: repository + "/" + binary).resolvingSymlinksInPath().path
    let built = URL(fileURLWithPath: template).resolvingSymlinksInPath().path
    #expect(named == built, "README runs \(binary), the build made \(template)")
    let directory = try TemporaryDirectory()
    let environment = [
      "TENFOOT_RUNTIME_DIR": directory.path + "/run",
      "TENFOOT_STATE_DIR": directory.path + "/state",
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "TERM": "xterm-256color",
    ]
    let shell = try Self.shell(environment)
    defer { shell.stop() }
    try Self.type("cd '\(repository)' && tenfoot-broker &", into: shell)
    try shell.waitFor("the broker's ready line") {
      $0.contains("tenfoot-broker ready control=ipc://") && $0.contains(" epoch=")
    }
    try Self.type(run, into: shell)
    try shell.waitFor("the template's menu") {
      $0.contains("Weather") && $0.contains("Select to open")
    }
    let remote = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"), ["press", "select"], environment: environment)
    #expect(try remote.waitForExit(timeout: 15) == 0, "\(remote.errors)")
    #expect(remote.output.last?.hasSuffix("focused page-weather") == true, "\(remote.output)")
    // The page's body text, drawn on its card (not the status line's focused id).
    try shell.waitFor("the Weather page's body") { $0.contains("Sunny, 21 °C.") }
  }
}
