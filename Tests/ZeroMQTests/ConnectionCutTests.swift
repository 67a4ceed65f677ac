import Foundation
import Testing
import ZeroMQ

/// Cutting one peer of a ROUTER (`MessageSource.cut`), over the transports that have a
/// descriptor: the cut peer's connection ends (its monitor sees it) and it comes back on a new
/// connection, while the ROUTER's other peer is not touched.
@Suite("Cutting one peer of a ROUTER by its message's source")
struct ConnectionCutTests {
  let context: Context

  init() throws { context = try Context() }

  /// Reads `monitor` until `event` comes (others are skipped); fails naming `what` after 5 s.
  func waitFor(_ event: Int32, on monitor: SocketMonitor, _ what: String) throws {
    let deadline = ContinuousClock.now + .seconds(5)
    repeat {
      while let next = try monitor.next() {
        if next.event == event { return }
      }
    } while try monitor.socket.awaitInput(until: deadline)
    Issue.record("no \(what) within 5 s")
    throw TimedOut(milliseconds: 5000)
  }

  /// Receives one message on `router`, refused by `keep` so that its source is returned.
  func refusedMessage(on router: Socket) throws -> ReceivedWithUserID {
    var poller = Poller()
    poller.add(router)
    try poller.poll(timeout: .seconds(5))
    return try #require(
      try router.receiveMultipartWithUserID(dontWait: true, keep: { _, _ in false }),
      "no message within 5 s")
  }

  @Test(
    "the cut peer is disconnected and reconnects; the other peer is served",
    arguments: [
      Transport.tcp, .ipc,
    ])
  func cutOnePeer(transport: Transport) throws {
    let router = try Socket(context, .router)
    let endpoint = try router.bindFresh(transport)
    let flooder = try Socket(context, .dealer)
    try flooder.setReconnectInterval(milliseconds: 50)
    let monitor = try SocketMonitor(
      context: context, watching: flooder, name: "cut-\(transport)",
      events: SocketEvent.disconnected | SocketEvent.connected)
    defer {
      try? flooder.stopMonitor()
      monitor.socket.close()
    }
    try flooder.connect(endpoint)
    let other = try Socket(context, .dealer)
    try other.connect(endpoint)
    try waitFor(SocketEvent.connected, on: monitor, "the flooder's connection")

    try flooder.send([UInt8](repeating: 1, count: 300))
    let refused = try refusedMessage(on: router)
    #expect(!refused.kept && refused.frames.count == 1, "only the routing id is returned")
    #expect(refused.bytes == 300, "the dropped frame is counted")
    let source = try #require(refused.source, "a \(transport) message names its source")
    #expect(source.fileDescriptor >= 0)
    if transport == .tcp { #expect(source.peerAddress == "127.0.0.1") }

    // Another peer address on the same descriptor is not cut (a stale descriptor).
    #expect(!MessageSource(fileDescriptor: source.fileDescriptor, peerAddress: "10.9.8.7").cut())
    #expect(source.cut(), "the descriptor is shut down")
    try waitFor(SocketEvent.disconnected, on: monitor, "the cut")

    // The other peer is served; the cut one comes back on a new connection.
    try other.send("still here")
    #expect(try router.receiveMultipart(within: 5000).last == bytes("still here"))
    try waitFor(SocketEvent.connected, on: monitor, "the reconnect")
    try flooder.send("back")
    let back = try router.receiveMultipart(within: 5000)
    #expect(back.last == bytes("back"))
    #expect(back.first != refused.frames.first, "a new connection, a new routing id")
  }

  @Test("an inproc message has no source to cut")
  func inprocHasNoSource() throws {
    let router = try Socket(context, .router)
    let endpoint = try router.bindFresh(.inproc)
    let dealer = try Socket(context, .dealer)
    try dealer.connect(endpoint)
    try dealer.send("x")
    let refused = try refusedMessage(on: router)
    #expect(refused.source == nil)
  }
}
