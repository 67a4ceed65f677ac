import Foundation
import Testing
import ZeroMQ

@Suite("Socket patterns over inproc, ipc and tcp")
struct SocketPatternTests {
  let context: Context

  init() throws { context = try Context() }

  @Test("PAIR carries multipart messages both ways", arguments: Transport.allCases)
  func pair(_ transport: Transport) throws {
    let a = try Socket(context, .pair)
    let b = try Socket(context, .pair)
    try b.connect(try a.bindFresh(transport))
    try b.send(frames: [bytes("hello"), [], bytes("world")])
    #expect(try a.receiveMultipart(within: 2000) == [bytes("hello"), [], bytes("world")])
    try a.send("back")
    #expect(try b.receiveMultipart(within: 2000) == [bytes("back")])
  }

  @Test(
    "DEALER/ROUTER: the router sees the identity and replies to it", arguments: Transport.allCases)
  func dealerRouter(_ transport: Transport) throws {
    let router = try Socket(context, .router)
    let endpoint = try router.bindFresh(transport)
    let first = try Socket(context, .dealer)
    try first.setRoutingID(bytes("first"))
    try first.connect(endpoint)
    let second = try Socket(context, .dealer)
    try second.setRoutingID(bytes("second"))
    try second.connect(endpoint)

    try first.send("ping-1")
    try second.send("ping-2")
    var seen: [String: [UInt8]] = [:]
    for _ in 0..<2 {
      let frames = try router.receiveMultipart(within: 2000)
      #expect(frames.count == 2)
      seen[String(decoding: frames[0], as: UTF8.self)] = frames[1]
    }
    #expect(seen == ["first": bytes("ping-1"), "second": bytes("ping-2")])
    try router.send(frames: [bytes("second"), bytes("pong")])
    #expect(try second.receiveMultipart(within: 2000) == [bytes("pong")])
    #expect(try first.receive(dontWait: true) == nil)
  }

  @Test("PUB/SUB filters by topic prefix", arguments: Transport.allCases)
  func publishSubscribe(_ transport: Transport) throws {
    let publisher = try Socket(context, .publisher)
    let endpoint = try publisher.bindFresh(transport)
    let subscriber = try Socket(context, .subscriber)
    try subscriber.subscribe("screen/main")
    try subscriber.connect(endpoint)
    // Subscriptions travel asynchronously (the "slow joiner"): publish until one arrives.
    var received: [[UInt8]]?
    for attempt in 0..<200 where received == nil {
      try publisher.send(frames: [bytes("screen/other"), bytes("no")])
      try publisher.send(frames: [bytes("screen/main"), bytes("\(attempt)")])
      received = try? subscriber.receiveMultipart(within: 20)
    }
    let frames = try #require(received, "no subscribed message within 200 attempts")
    #expect(frames[0] == bytes("screen/main"))
    while let more = try subscriber.receiveMultipart(dontWait: true) {
      #expect(more[0] == bytes("screen/main"), "a message of an unsubscribed topic arrived")
    }
  }

  @Test("PUSH/PULL delivers in order")
  func pushPull() throws {
    let pull = try Socket(context, .pull)
    let push = try Socket(context, .push)
    try push.connect(try pull.bindFresh(.ipc))
    for index in 0..<100 { try push.send("\(index)") }
    for index in 0..<100 {
      #expect(try pull.receiveMultipart(within: 2000) == [bytes("\(index)")])
    }
  }
}
