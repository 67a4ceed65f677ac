import FocusEngine
import Foundation
import Testing
@testable import ZeroMQ

#if canImport(Glibc)
  import Glibc
#endif

/// The poller asks a socket's `ZMQ_EVENTS` again only when the socket was used since it last
/// asked, or its descriptor woke the wait. These tests hold what it reports to what is really
/// queued: after operations that take the descriptor's signal (a bind processes the socket's
/// commands), with sockets left unread, over inproc (delivery is synchronous, so a model of the
/// queues is exact) and with input arriving while it blocks.
@Suite("Poller: readiness kept per socket, asked again only after use")
struct PollerTests {
  let context: Context

  init() throws { context = try Context() }

  @Test("input whose signal an operation took is still reported, without waiting")
  func signalTakenByAnOperation() throws {
    let pull = try Socket(context, .pull)
    let push = try Socket(context, .push)
    try push.connect(try pull.bindFresh(.inproc))
    var poller = Poller()
    poller.add(pull)
    #expect(try poller.poll(timeout: .zero) == 0)
    try push.send("a")
    // A bind processes the socket's pending commands, the message's among them, so its
    // descriptor is no longer readable: only asking ZMQ_EVENTS again finds the message.
    _ = try pull.bindFresh(.inproc)
    let started = ContinuousClock.now
    let ready = try poller.poll(timeout: .seconds(3))
    #expect(ready == 1 && poller.isReadable(0), "the queued message was not reported")
    #expect(ContinuousClock.now - started < .seconds(2), "the poll waited for its timeout")
    #expect(try pull.receive(dontWait: true) == bytes("a"))
    #expect(try poller.poll(timeout: .zero) == 0)
  }

  @Test("input another poller of the same socket found is still reported, without waiting")
  func anotherPollerAsked() throws {
    let pull = try Socket(context, .pull)
    let push = try Socket(context, .push)
    try push.connect(try pull.bindFresh(.inproc))
    var loopPoller = Poller()
    loopPoller.add(pull)
    #expect(try loopPoller.poll(timeout: .zero) == 0)
    try push.send("a")
    // A handler waiting on the socket its loop polls: its own poller asks ZMQ_EVENTS, which
    // processes the message's command and takes the descriptor's signal.
    #expect(try pull.awaitInput(until: .now + .seconds(3)))
    let started = ContinuousClock.now
    #expect(try loopPoller.poll(timeout: .seconds(3)) == 1, "the queued message was not reported")
    #expect(ContinuousClock.now - started < .seconds(2), "the poll waited for its timeout")
  }

  @Test("a socket left unread is reported again, and one drained is not")
  func levelTriggered() throws {
    let pull = try Socket(context, .pull)
    let push = try Socket(context, .push)
    try push.connect(try pull.bindFresh(.inproc))
    var poller = Poller()
    poller.add(pull)
    try push.send("a")
    try push.send("b")
    for _ in 0..<3 { #expect(try poller.poll(timeout: .zero) == 1) }
    #expect(try pull.receive(dontWait: true) == bytes("a"))
    #expect(try poller.poll(timeout: .zero) == 1)
    #expect(try pull.receive(dontWait: true) == bytes("b"))
    #expect(try poller.poll(timeout: .zero) == 0)
    #expect(try poller.poll(timeout: .milliseconds(20)) == 0)
  }

  @Test(
    "a receive that found nothing stands for the ask, and input after it still wakes the wait",
    arguments: [Transport.ipc, .tcp])
  func drainedReceiveIsTheAnswer(_ transport: Transport) throws {
    let router = try Socket(context, .router)
    let endpoint = try router.bindFresh(transport)
    let dealer = try Socket(context, .dealer)
    try dealer.connect(endpoint)
    var poller = Poller()
    poller.add(router)
    try dealer.send("a")
    #expect(try poller.poll(timeout: .seconds(5)) == 1, "nothing arrived within 5 s")
    #expect(try router.receiveMultipartWithUserID(dontWait: true)?.frames.last == bytes("a"))
    #expect(try router.receiveMultipartWithUserID(dontWait: true) == nil)
    // The empty receive was the last call: the poller takes its answer without asking.
    let before = router.operations.count
    #expect(try poller.poll(timeout: .zero) == 0)
    #expect(router.operations.count == before, "the poller asked ZMQ_EVENTS after a drain")
    try dealer.send("b")
    #expect(try poller.poll(timeout: .seconds(5)) == 1, "input after the drain did not wake it")
    #expect(try router.receive(dontWait: true) != nil)
    #expect(try router.receive(dontWait: true) == bytes("b"))
    #expect(try router.receive(dontWait: true) == nil)
    #expect(try poller.poll(timeout: .zero) == 0)
  }

  @Test("input that arrives while the poll blocks wakes it", arguments: [Transport.ipc, .tcp])
  func wakesOnArrival(_ transport: Transport) throws {
    let pull = try Socket(context, .pull)
    let endpoint = try pull.bindFresh(transport)
    var poller = Poller()
    poller.add(pull)
    #expect(try poller.poll(timeout: .zero) == 0)
    let context = self.context
    let sender = Thread {
      // The sender's own socket, on its own thread.
      guard let push = try? Socket(context, .push) else { return }
      try? push.connect(endpoint)
      try? push.send("late")
      try? push.setLinger(milliseconds: 1000)
    }
    sender.start()
    #expect(try poller.poll(timeout: .seconds(5)) == 1, "nothing arrived within 5 s")
    #expect(try pull.receive(dontWait: true) == bytes("late"))
  }

  /// Three socket pairs over inproc and a pipe, under 3,000 random operations; after each, a
  /// zero-timeout poll must report exactly the items that have input in the model.
  @Test(
    "what it reports matches what is queued, over 3,000 random operations", arguments: [1, 2, 3])
  func randomOperations(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let kinds: [(SocketType, SocketType)] = [(.pull, .push), (.pair, .pair), (.dealer, .dealer)]
    var polled: [Socket] = []
    var peers: [Socket] = []
    for (own, other) in kinds {
      let socket = try Socket(context, own)
      let peer = try Socket(context, other)
      try peer.connect(try socket.bindFresh(.inproc))
      polled.append(socket)
      peers.append(peer)
    }
    var pipe: [Int32] = [0, 0]
    #expect(Glibc.pipe(&pipe) == 0)
    defer {
      close(pipe[0])
      close(pipe[1])
    }
    var poller = Poller()
    for socket in polled { poller.add(socket) }
    poller.add(fileDescriptor: pipe[0])
    var queued = [Int](repeating: 0, count: polled.count)
    var piped = 0
    var binds = 0
    for step in 0..<3_000 {
      let index = Int(random.next() % UInt64(polled.count))
      switch random.next() % 7 {
      case 0, 1:
        let count = Int(random.next() % 3) + 1
        for _ in 0..<count { try peers[index].send("m") }
        queued[index] += count
      case 2:
        let count = Int(random.next() % 3) + 1
        for _ in 0..<count where try polled[index].receive(dontWait: true) != nil {
          queued[index] -= 1
        }
      case 3 where index > 0:
        // A send from the polled socket (PAIR, DEALER) processes its commands too.
        try polled[index].send("r")
        #expect(try peers[index].receive(dontWait: true) == bytes("r"))
      case 4 where binds < 40:
        _ = try polled[index].bindFresh(.inproc)
        binds += 1
      case 5:
        var byte: UInt8 = 1
        #expect(write(pipe[1], &byte, 1) == 1)
        piped += 1
      case 6 where piped > 0:
        var byte: UInt8 = 0
        #expect(read(pipe[0], &byte, 1) == 1)
        piped -= 1
      default: break
      }
      guard random.next() % 3 != 0 else { continue }
      let expected = queued.filter { $0 > 0 }.count + (piped > 0 ? 1 : 0)
      let ready = try poller.poll(timeout: .zero)
      #expect(ready == expected, "step \(step): \(ready) readable, the model has \(expected)")
      for socket in polled.indices {
        #expect(poller.isReadable(socket) == (queued[socket] > 0), "step \(step), socket \(socket)")
      }
      #expect(poller.isReadable(polled.count) == (piped > 0), "step \(step), the pipe")
      if ready > 0 {
        // A wait with input queued returns at once.
        #expect(try poller.poll(timeout: .seconds(5)) == expected)
      }
    }
  }
}
