import Foundation
import TenFootProtocol
import TestSupport
import Testing
import ZeroMQ

/// Revoking a key cuts it off the state socket too, not just the control socket: ZAP runs only
/// when a connection starts, so the broker drops the state socket's connections and lets the
/// honest ones come back.
@Suite("Revoke: a revoked key loses the state it subscribed to", .serialized)
struct RevokeTests {
  @Test(
    "a revoked subscriber gets no more state and is refused on reconnect; honest screens resync")
  func revokedSubscriberCutOff() throws {
    let stack = try SecureStack()
    let screen = try stack.screen()
    let first = try screen.waitForFrame(timeout: 15, "first frame") { $0.focused == "r0c0" }
    let pair = try stack.pair(name: "phone", screen: screen, from: first.index)
    #expect(pair.output.contains { $0.hasPrefix("paired:") }, "\(pair.errors)")
    let tablet = try stack.pair(name: "tablet", screen: screen, from: screen.output.count)
    let paired = try #require(
      tablet.output.first { $0.hasPrefix("paired: this remote is ") }, "\(tablet.errors)")
    let tabletID = String(try #require(paired.split(separator: " ").dropFirst(4).first))

    // A subscriber holding an allow-listed key, as a remote that also watches state would.
    let keys = try CurveKeyPair.generate()
    let added = try SecureStack.run(
      "tenfoot-broker",
      [
        "remotes", "add", "--data-dir", stack.dataDirectory, "--name", "watcher", "--role",
        "remote", "--key", keys.publicKey,
      ])
    let id = String(try #require(added.first?.split(separator: " ").dropFirst().first))
    let context = try Context()
    let subscriber = try Socket(context, .subscriber)
    try subscriber.setCurveClient(serverKey: try stack.brokerKey(), keyPair: keys)
    try subscriber.setReconnectInterval(milliseconds: 100, maxMilliseconds: 250)
    let monitor = try SocketMonitor(
      context: context, watching: subscriber, name: "revoke-test-subscriber",
      events: SocketEvent.disconnected | SocketEvent.handshakeFailedAuth)
    defer { try? subscriber.stopMonitor() }
    try subscriber.subscribe("")
    try subscriber.connect(stack.state)
    #expect(
      try SocketWait.message(on: subscriber, within: 10) != nil,
      "the allow-listed subscriber gets state")

    let framesBefore = screen.output.count
    let revoking = Date()
    _ = try SecureStack.run(
      "tenfoot-broker", ["remotes", "revoke", id, "--data-dir", stack.dataDirectory])
    let revoked = Date()
    let cut = try stack.broker.waitForErrorLine(timeout: 5, "the broker cutting the peer off") {
      $0.contains("revoked peer cut off") && $0.contains(id)
    }
    let cutAt = Date()
    // The broker closed the subscriber's connection: from here nothing more can arrive on it
    // but what was already queued, which is drained.
    try SocketWait.event(SocketEvent.disconnected, on: monitor, within: 5, "the connection cut")
    while try subscriber.receiveMultipart(dontWait: true) != nil {}

    // The honest screen reconnects, resyncs (a fresh frame of the same state) and follows on.
    try screen.waitForFrame(from: framesBefore, timeout: 5, "the honest screen resynced") {
      $0.focused == "r0c0"
    }
    let backAt = Date()
    let press = try stack.remote(["press", "right"], name: "phone")
    #expect(try press.waitForExit(timeout: 10) == 0, "\(press.errors)")
    try screen.waitForFrame(from: framesBefore, timeout: 5, "the honest screen following on") {
      $0.focused == "r0c1"
    }
    // Heartbeats go out every second: a subscriber still connected would see one (and the
    // press's delta) within this bounded wait.
    let late = try SocketWait.message(on: subscriber, within: 1.5)
    #expect(late == nil, "a revoked subscriber received state after the cut: \(late ?? [])")
    try SocketWait.event(
      SocketEvent.handshakeFailedAuth, on: monitor, within: 5, "ZAP refusing the reconnect")
    try stack.broker.waitForErrorLine(timeout: 5, "the broker logging the refused peer") {
      $0.contains("peer refused")
    }

    // Revoking a remote that never subscribed cuts nothing: screens are left alone. Once the
    // broker has logged the reload, a cut would already be logged (it comes before anything
    // else the broker does), so the next press being served settles it.
    _ = try SecureStack.run(
      "tenfoot-broker", ["remotes", "revoke", tabletID, "--data-dir", stack.dataDirectory])
    try stack.broker.waitForErrorLine(timeout: 5, "the broker reloading the allow-list") {
      $0.contains("allow-list reloaded") && $0.contains(tabletID)
    }
    let next = try stack.remote(["press", "right"], name: "phone")
    #expect(try next.waitForExit(timeout: 10) == 0, "\(next.errors)")
    try screen.waitForFrame(from: framesBefore, timeout: 5, "the screen following on") {
      $0.focused == "r0c2"
    }
    #expect(
      !stack.broker.errors.contains { $0.contains("revoked peer cut off") && $0.contains(tabletID) }
    )
    #expect(stack.broker.errors.filter { $0.contains("revoked peer cut off") }.count == 1)
    print(
      "revoke: command ran \(Int(revoked.timeIntervalSince(revoking) * 1000)) ms; "
        + "command start → cut logged \(Int(cutAt.timeIntervalSince(revoking) * 1000)) ms; "
        + "cut → honest screen resynced \(Int(backAt.timeIntervalSince(cutAt) * 1000)) ms; "
        + "broker line: \(cut)")
  }

  @Test(
    "a revoked interactive remote (tmux) says so once, in one sentence, and exits",
    .enabled(if: TerminalScreenTests.hasTmux, "needs tmux (scripts/bootstrap)"))
  func revokedInteractiveRemote() throws {
    let stack = try SecureStack()
    let screen = try stack.screen()
    let first = try screen.waitForFrame(timeout: 15, "first frame") { $0.focused == "r0c0" }
    let pair = try stack.pair(name: "phone", screen: screen, from: first.index)
    let paired = try #require(
      pair.output.first { $0.hasPrefix("paired: this remote is ") }, "\(pair.errors)")
    let id = String(try #require(paired.split(separator: " ").dropFirst(4).first))

    // Wide enough that the message is one line of the pane (a wrapped one would split words).
    let arguments =
      [TestEnvironment.binary("tenfoot-remote"), "--state-dir", stack.directory.path + "/phone"]
      + stack.endpointArguments
    let command =
      arguments.map { "'\($0)'" }.joined(separator: " ") + "; echo remote-exited-$?"
      + Tmux.keepAlive
    let tmux = try Tmux(columns: 220, rows: 30, command: command, environment: stack.environment)
    defer { tmux.stop() }
    try tmux.waitFor("the remote's help header", timeout: 15) {
      $0.contains("driving screen \"main\"")
    }
    try tmux.run(["send-keys", "-t", tmux.session, "Right"])
    try tmux.waitFor("the first press") { $0.contains("right: focus r0c0 → r0c1") }

    _ = try SecureStack.run(
      "tenfoot-broker", ["remotes", "revoke", id, "--data-dir", stack.dataDirectory])
    try tmux.run(["send-keys", "-t", tmux.session, "Right"])
    let pane = try tmux.waitFor("the remote to exit after the revoke", timeout: 15) {
      $0.contains("remote-exited-")
    }
    #expect(!pane.contains("remote-exited-0"), "a revoked remote exits with a failure:\n\(pane)")
    func count(_ text: String) -> Int { pane.components(separatedBy: text).count - 1 }
    #expect(count("revoked") == 1, "the revocation said once:\n\(pane)")
    #expect(count("tenfoot-remote pair") == 1, "the advice given once:\n\(pane)")
    #expect(
      pane.contains(
        "not paired: the broker revoked this remote's key: run tenfoot-remote pair to pair again"),
      "\(pane)")
  }

  @Test("a revoked screen says 'not paired' and exits; an unknown screen says so at start")
  func revokedScreenExits() throws {
    let stack = try SecureStack()
    let screen = try stack.screen()
    try screen.waitForFrame(timeout: 15, "first frame") { $0.focused == "r0c0" }
    let listed = try SecureStack.run(
      "tenfoot-broker", ["remotes", "list", "--data-dir", stack.dataDirectory])
    let line = try #require(listed.first { $0.contains("  tv  ") }, "\(listed)")
    let id = String(try #require(line.split(separator: " ").first))
    let framesBefore = screen.frames.count
    let revoking = Date()
    _ = try SecureStack.run(
      "tenfoot-broker", ["remotes", "revoke", id, "--data-dir", stack.dataDirectory])
    #expect(try screen.waitForExit(timeout: 10) != 0)
    let exited = Date()
    let errors = screen.errors.joined(separator: "\n")
    #expect(errors.contains("not paired"), "\(errors)")
    #expect(errors.contains("tenfoot-broker remotes add --role screen"), "\(errors)")
    // (The cut may show as the link lost, a {"link":"lost",…} line, before the screen exits.)
    #expect(screen.frames.count == framesBefore, "no frame after the revoke")
    print(
      "revoke: command start → revoked screen exited \(Int(exited.timeIntervalSince(revoking) * 1000)) ms; \(errors)"
    )

    // A screen whose key was never added is told so at once, not left waiting.
    let stranger = try stack.screen(name: "stranger")
    #expect(try stranger.waitForExit(timeout: 10) != 0)
    #expect(stranger.errors.joined().contains("not paired"), "\(stranger.errors)")
  }
}
