import Foundation
import Testing
import ZeroMQ

@Suite("Socket behaviour: errors, would-block, options, poller")
struct SocketBehaviourTests {
  let context: Context

  init() throws { context = try Context() }

  @Test("a bad endpoint throws ZeroMQError with errno and operation")
  func badEndpoint() throws {
    let socket = try Socket(context, .router)
    let error = try #require(throws: ZeroMQError.self) { try socket.bind("nonsense://x") }
    #expect(error.errno == EPROTONOSUPPORT)
    #expect(error.operation == "zmq_bind(nonsense://x)")
    #expect(error.description.contains("errno \(EPROTONOSUPPORT)"))
  }

  @Test("binding an address in use fails with EADDRINUSE")
  func addressInUse() throws {
    let first = try Socket(context, .router)
    let endpoint = try first.bindFresh(.tcp)
    let second = try Socket(context, .router)
    let error = try #require(throws: ZeroMQError.self) { try second.bind(endpoint) }
    #expect(error.errno == EADDRINUSE)
  }

  @Test("would-block is a value: receive gives nil, send gives false")
  func wouldBlock() throws {
    let dealer = try Socket(context, .dealer)
    #expect(try dealer.receive(dontWait: true) == nil)
    // A DEALER with no peer has nowhere to queue: a non-blocking send would block.
    #expect(try dealer.send("x", dontWait: true) == false)
  }

  @Test("tcp wildcard binds report the real port")
  func lastEndpoint() throws {
    let socket = try Socket(context, .router)
    try socket.bind("tcp://127.0.0.1:*")
    let endpoint = try socket.lastEndpoint
    #expect(endpoint.hasPrefix("tcp://127.0.0.1:"))
    #expect(Int(endpoint.split(separator: ":").last ?? "") ?? 0 > 0)
  }

  @Test("ZMQ_MAXMSGSIZE drops an oversize message and keeps serving others")
  func maxMessageSize() throws {
    let router = try Socket(context, .router)
    try router.setMaxMessageSize(1024)
    let endpoint = try router.bindFresh(.tcp)
    let big = try Socket(context, .dealer)
    try big.connect(endpoint)
    try big.send([UInt8](repeating: 7, count: 4096))
    let small = try Socket(context, .dealer)
    try small.connect(endpoint)
    try small.send("fits")
    let frames = try router.receiveMultipart(within: 2000)
    #expect(frames.last == bytes("fits"))
    #expect(try router.receiveMultipart(dontWait: true) == nil)
  }

  @Test("the poller reports raw file descriptors and the waker wakes it")
  func pollerAndWaker() throws {
    let waker = try Waker()
    var poller = Poller()
    let index = poller.add(fileDescriptor: waker.fileDescriptor)
    #expect(try poller.poll(timeout: .zero) == 0)
    let thread = Thread { waker.wake() }
    thread.start()
    #expect(try poller.poll(timeout: .seconds(5)) == 1)
    #expect(poller.isReadable(index))
    waker.drain()
    #expect(try poller.poll(timeout: .zero) == 0)
  }

  @Test("CURVE: a client with the server's key talks; one with a wrong key does not")
  func curve() throws {
    #expect(Context.has("curve"))
    let serverKeys = try CurveKeyPair.generate()
    #expect(serverKeys.publicKey.utf8.count == 40)
    let server = try Socket(context, .router)
    try server.setCurveServer(secretKey: serverKeys.secretKey)
    let endpoint = try server.bindFresh(.tcp)

    let good = try Socket(context, .dealer)
    try good.setCurveClient(serverKey: serverKeys.publicKey, keyPair: try CurveKeyPair.generate())
    try good.connect(endpoint)
    try good.send("secret")
    #expect(try server.receiveMultipart(within: 3000).last == bytes("secret"))

    let bad = try Socket(context, .dealer)
    let otherServer = try CurveKeyPair.generate()
    try bad.setCurveClient(serverKey: otherServer.publicKey, keyPair: try CurveKeyPair.generate())
    try bad.connect(endpoint)
    try bad.send("intruder")
    #expect(throws: TimedOut.self) { try server.receiveMultipart(within: 300) }
  }

  @Test("libzmq is 4.3 or newer")
  func version() {
    let version = Context.version
    #expect(version.major == 4 && version.minor >= 3)
  }
}
