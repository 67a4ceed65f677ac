import Foundation
import TenFootProtocol
import TestSupport
import Testing
import ZeroMQ

@Suite("Bad input and missing brokers", .serialized)
struct BadInputTests {
  @Test("garbage and unknown screens get typed errors, then valid input is served")
  func garbageThenValid() throws {
    let stack = try Stack(.ipc)
    let screen = try stack.screen(["--layout", try stack.layoutFile(rows: 3, columns: 3)])
    try screen.waitForFrame("first frame") { $0.focused == "r0c0" }

    let context = try Context()
    let dealer = try Socket(context, .dealer)
    defer { dealer.close() }
    try dealer.connect(stack.control)
    func reply(to frames: [[UInt8]]) throws -> Tenfoot_V1_Envelope {
      try dealer.send(frames: frames)
      var poller = Poller()
      poller.add(dealer)
      try poller.poll(timeout: .seconds(5))
      let bytes = try #require(try dealer.receive(dontWait: true), "no reply within 5 s")
      return try Tenfoot_V1_Envelope.decode(bytes)
    }

    let garbage = try reply(to: [Array("GET / HTTP/1.1\r\n\r\n".utf8)])
    guard case .error(let malformed) = garbage.body else {
      Issue.record("expected an error, got \(garbage)")
      return
    }
    #expect(malformed.code == .malformed)

    var input = Tenfoot_V1_Input()
    input.screenID = "living-room"
    input.key.key = .right
    input.key.phase = .down
    let unknown = try reply(to: [
      Tenfoot_V1_Envelope(sender: "t", seq: 1, sentAtNanoseconds: 0, body: .input(input)).encoded()
    ])
    guard case .error(let unknownScreen) = unknown.body else {
      Issue.record("expected an error, got \(unknown)")
      return
    }
    #expect(unknownScreen.code == .unknownScreen)
    #expect(unknownScreen.message.contains("living-room"))
    #expect(unknown.replyTo == 1)

    input.screenID = "main"
    let valid = try reply(to: [
      Tenfoot_V1_Envelope(sender: "t", seq: 2, sentAtNanoseconds: 0, body: .input(input)).encoded()
    ])
    guard case .ack(let ack) = valid.body else {
      Issue.record("expected an ack, got \(valid)")
      return
    }
    #expect(ack.focused == "r0c1")
    try screen.waitForFrame("the valid input reached the screen") { $0.focused == "r0c1" }
    // The log line travels on stderr, a separate pipe from the replies: wait for it.
    try stack.broker.waitForErrorLine("the broker's log line for the garbage frame") {
      $0.contains("malformed")
    }
  }

  @Test("a remote with no broker exits non-zero within 5 s naming the endpoint")
  func noBroker() throws {
    let directory = try TemporaryDirectory()
    let started = Date()
    let remote = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"), ["press", "up"],
      environment: ["TENFOOT_RUNTIME_DIR": directory.path])
    let status = try remote.waitForExit(timeout: 5)
    #expect(status != 0)
    #expect(Date().timeIntervalSince(started) < 5)
    let message = remote.errors.joined(separator: "\n")
    #expect(
      message.contains(
        "no broker is running at ipc://\(directory.path)/control: start tenfoot-broker"),
      "\(message)")
  }

  @Test("TCP without --insecure is CURVE: a plain-TCP remote gets no service")
  func tcpIsCurve() throws {
    let directory = try TemporaryDirectory()
    let broker = try ChildProcess(
      TestEnvironment.binary("tenfoot-broker"),
      [
        "--control", "tcp://127.0.0.1:*", "--state", "tcp://127.0.0.1:*", "--data-dir",
        directory.path + "/broker",
      ])
    let ready = try broker.waitForLine("broker ready") { $0.hasPrefix("tenfoot-broker ready") }
    #expect(ready.line.contains(" pairing=tcp://127.0.0.1:"), "\(ready.line)")
    let control = try #require(
      ready.line.split(separator: " ").first { $0.hasPrefix("control=") }?.dropFirst(8))
    let remote = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"),
      [
        "press", "up", "--control", String(control), "--state", "tcp://127.0.0.1:9",
        "--insecure", "--timeout", "5",
      ])
    #expect(try remote.waitForExit(timeout: 10) != 0)
    #expect(
      remote.errors.joined().contains("speaks CURVE: drop --insecure"), "\(remote.errors)")
  }

  @Test("a layout file with an unknown field is refused naming the path")
  func badLayoutFile() throws {
    let directory = try TemporaryDirectory()
    let file = try directory.write(
      "bad.json", #"{"items": [{"id": "a", "frame": [0, 0, 10, 10], "colour": "red"}]}"#)
    let screen = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"), ["--layout", file, "--renderer", "headless"],
      environment: ["TENFOOT_RUNTIME_DIR": directory.path + "/run"])
    #expect(try screen.waitForExit(timeout: 10) != 0)
    let message = screen.errors.joined(separator: "\n")
    #expect(message.contains("items[0]"), "\(message)")
    #expect(message.contains("colour"), "\(message)")
  }
}
