import Foundation
import TenFootProtocol
import TestSupport
import Testing
import ZeroMQ

/// Strings from peers are data, never control (issue 17), with real processes: a remote's
/// typed escape sequence and a layout's escape-laden title leave a real terminal (tmux) as it
/// was, and a broker's log keeps one line per event whatever the peers send.
@Suite("Hostile strings across processes", .serialized)
struct HostileStringProcessTests {
  static let typeAttack = "x\u{1B}]0;OWNED-BY-REMOTE\u{07}\u{1B}[2J"
  static let titleAttack = "Esc\u{1B}]0;HACKED\u{07}\u{1B}[2J"

  /// A DEALER on the broker's control endpoint that sends one envelope and returns the reply.
  final class Peer {
    let context: Context
    let dealer: Socket
    private var seq: UInt64 = 0

    init(_ endpoint: String) throws {
      context = try Context()
      dealer = try Socket(context, .dealer)
      try dealer.connect(endpoint)
    }

    deinit { dealer.close() }

    func send(_ body: Tenfoot_V1_Envelope.OneOf_Body, sender: String = "test:peer") throws
      -> Tenfoot_V1_Envelope
    {
      seq += 1
      try dealer.send(
        Tenfoot_V1_Envelope(sender: sender, seq: seq, sentAtNanoseconds: 0, body: body).encoded())
      var poller = Poller()
      poller.add(dealer)
      try poller.poll(timeout: .seconds(5))
      let bytes = try #require(try dealer.receive(dontWait: true), "no reply within 5 s")
      return try Tenfoot_V1_Envelope.decode(bytes)
    }
  }

  @Test("the type attack: refused INVALID_INPUT; the pane title and the screen stay untouched")
  func typeAttack() throws {
    try #require(TerminalScreenTests.hasTmux, "tmux is not installed: run scripts/bootstrap")
    let stack = try Stack(.ipc)
    // The catalog app (no --layout), with its search field.
    let command =
      "\(TestEnvironment.binary("tenfoot-screen")) --renderer terminal" + Tmux.keepAlive
    let tmux = try Tmux(columns: 100, rows: 30, command: command, environment: stack.environment)
    defer { tmux.stop() }
    try tmux.waitFor("the catalog's first frame") { $0.contains("▶ ") }
    let title = try tmux.pane("pane_title")

    let focus = try stack.remote(["focus", "search"])
    #expect(focus.status == 0, "\(focus.errors)")
    let attack = try stack.remote(["type", Self.typeAttack])
    #expect(attack.status != 0, "the attack was accepted: \(attack.output)")
    let refusal = attack.errors.joined(separator: "\n")
    #expect(refusal.contains("invalid_input"), "\(refusal)")
    #expect(refusal.contains("text: contains control character U+001B"), "\(refusal)")
    #expect(!refusal.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })

    // Typing after the attack shows the screen kept serving and drawing.
    let typed = try stack.remote(["type", "ok"])
    #expect(typed.status == 0, "\(typed.errors)")
    let shown = try tmux.waitFor("the typed text") { $0.contains("ok▏") }
    let styled = try tmux.run(["capture-pane", "-e", "-p", "-t", tmux.session])
    #expect(try tmux.pane("pane_title") == title, "the pane title changed")
    #expect(!shown.contains("OWNED") && !styled.contains("OWNED"), "\(styled)")
    #expect(shown.contains("▶ "), "the screen was not cleared:\n\(shown)")
  }

  @Test("the title attack: a layout with it is refused naming the item; the terminal is untouched")
  func titleAttack() throws {
    try #require(TerminalScreenTests.hasTmux, "tmux is not installed: run scripts/bootstrap")
    let stack = try Stack(.ipc)
    let layout = try stack.layoutFile(rows: 2, columns: 3)
    let tmux = try Tmux.terminalScreen(layout: layout, stack: stack)
    defer { tmux.stop() }
    try tmux.waitFor("the first frame") { $0.contains("▶ Row 0 Col 0") }
    let title = try tmux.pane("pane_title")

    // Another host re-registers the session the terminal shows, with the hostile title.
    var wire = Tenfoot_V1_Layout(TestLayouts.grid(rows: 2, columns: 3))
    wire.items[1].title = Self.titleAttack
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = "main"
    register.layout = wire
    let peer = try Peer(stack.control)
    let reply = try peer.send(.registerScreen(register), sender: "screen:other-host")
    guard case .error(let error) = reply.body else {
      Issue.record("the hostile layout was accepted: \(reply)")
      return
    }
    #expect(error.code == .invalidLayout)
    #expect(
      error.message
        == "items[1].title: item \"r0c1\" contains control character U+001B at position 3")

    // The same title in a layout file: the screen refuses it before sending, naming the item.
    let hostileFile = try stack.directory.write(
      "hostile.json",
      #"{"items": [{"id": "a", "frame": [0, 0, 10, 10]}, "#
        + #"{"id": "b", "title": "Esc\u001b]0;HACKED\u0007\u001b[2J", "frame": [20, 0, 10, 10]}]}"#)
    let local = try stack.screen(["--layout", hostileFile, "--id", "second"])
    #expect(try local.waitForExit(timeout: 10) != 0)
    let message = local.errors.joined(separator: "\n")
    #expect(message.contains("items[1].title: item \"b\" contains control character"), "\(message)")

    // A remote press shows the terminal still draws the session, untouched.
    _ = try stack.remote(["press", "right"])
    let shown = try tmux.waitFor("focus on Row 0 Col 1") { $0.contains("▶ Row 0 Col 1") }
    let styled = try tmux.run(["capture-pane", "-e", "-p", "-t", tmux.session])
    #expect(try tmux.pane("pane_title") == title, "the pane title changed")
    #expect(!styled.contains("HACKED"), "\(styled)")
    #expect(shown.contains("Row 1 Col 2"), "the screen was not cleared:\n\(shown)")
  }

  /// Every C0 control, DEL and every C1 control.
  static let controls: [String] = (Array(0x00...0x1F) + Array(0x7F...0x9F)).compactMap {
    Unicode.Scalar(UInt32($0)).map { String(Character($0)) }
  }

  /// One request per string field, with `text` in it (the sender is `sender`).
  static func requests(_ text: String) -> [(sender: String, body: Tenfoot_V1_Envelope.OneOf_Body)] {
    var typed = Tenfoot_V1_Input()
    typed.screenID = "main"
    typed.text = .with { $0.edit = .set("a" + text) }
    var key = Tenfoot_V1_Input()
    key.screenID = "main" + text
    key.key = .with {
      $0.key = .right
      $0.phase = .down
    }
    var wire = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 2))
    wire.items[0].title = "t" + text
    var titled = Tenfoot_V1_RegisterScreen()
    titled.screenID = "other"
    titled.layout = wire
    var named = titled
    named.screenID = "tv" + text
    named.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 2))
    var focus = Tenfoot_V1_FocusRequest()
    focus.screenID = "main"
    focus.group = "g" + text
    var patch = Tenfoot_V1_PatchLayout()
    patch.screenID = "main"
    patch.focusItem = "r0c0" + text
    var debug = Tenfoot_V1_DebugRequest()
    debug.screenID = "main"
    debug.dryRun = "up" + text
    var snapshot = Tenfoot_V1_SnapshotRequest()
    snapshot.screenID = "main" + text
    var hello = Tenfoot_V1_Hello()
    hello.client = "c" + text
    return [
      (
        "remote:x" + text + "2026-11-23T00:00:00+0000 critical tenfoot.broker: FORGED",
        .hello(.init())
      ),
      ("t", .hello(hello)), ("t", .input(typed)), ("t", .input(key)),
      ("t", .registerScreen(titled)), ("t", .registerScreen(named)), ("t", .focusRequest(focus)),
      ("t", .patchLayout(patch)), ("t", .debugRequest(debug)), ("t", .snapshotRequest(snapshot)),
    ]
  }

  @Test("every C0 and C1 control in every string field: refused, and one log line per event")
  func logLines() throws {
    let stack = try Stack(.ipc)
    let screen = try stack.screen(["--layout", try stack.layoutFile(rows: 2, columns: 2)])
    try screen.waitForFrame("first frame") { $0.focused == "r0c0" }
    let peer = try Peer(stack.control)
    var sent = 0
    for control in Self.controls {
      for request in Self.requests(control) {
        let reply = try peer.send(request.body, sender: request.sender)
        sent += 1
        guard case .error(let error) = reply.body else {
          Issue.record("accepted U+\(control.unicodeScalars.map(\.value)): \(reply)")
          continue
        }
        #expect(
          [.malformed, .invalidInput, .invalidLayout].contains(error.code),
          "\(error.code): \(error.message)")
      }
    }
    // The broker logs at most five refusals a second and counts the rest on the next line it
    // logs: refuse one more, with a sender of its own, until one is logged (within 0.5 s, or
    // it was suppressed too), so every event is accounted for.
    var flushed = false
    for attempt in 0..<20 where !flushed {
      let sender = "remote:flush-\(attempt)\n"
      _ = try peer.send(.hello(.init()), sender: sender)
      sent += 1
      flushed =
        (try? stack.broker.waitForErrorLine(timeout: 0.5, "the refusal of \(sender)") {
          $0.contains("peer=remote:flush-\(attempt)\\n")
        }) != nil
    }
    #expect(flushed, "no refusal was logged in 10 s")
    let lines = stack.broker.errors
    let record =
      #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4} (trace|debug|info|notice|warning|error|critical) tenfoot\S*: /#
    var refused = 0
    for line in lines {
      #expect(line.firstMatch(of: record) != nil, "not one log record: \(line.debugDescription)")
      #expect(
        !line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
        "a control character in the log: \(line.debugDescription)")
      #expect(!line.hasPrefix("2026-11-23T00:00:00"), "a forged line: \(line)")
      // The screen's own refusals (a snapshot asked before it registered) are not this test's.
      guard line.hasSuffix("request refused"), !line.contains(" peer=screen:") else { continue }
      refused += 1
      if let match = line.firstMatch(of: #/log\.suppressed=(\d+)/#) {
        refused += Int(match.1) ?? 0
      }
    }
    #expect(
      refused == sent,
      "\(sent) refusals, \(refused) logged or counted:\n\(lines.joined(separator: "\n"))")
    // The first refusal (U+0000 in the forged sender) is always logged; the flushes' newlines.
    #expect(lines.contains { $0.contains(#"peer=remote:x\u{0}2026-11-23T00:00:00+0000 critical"#) })
    #expect(lines.contains { $0.contains(#"peer=remote:flush-"#) && $0.contains(#"\n request="#) })
  }
}
