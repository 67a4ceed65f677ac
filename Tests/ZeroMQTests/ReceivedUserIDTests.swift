import Testing
import ZeroMQ

/// `receiveMultipartWithUserID` asks one frame of a message for the ZAP `User-Id` (the second,
/// or the first when it is alone; a ROUTER's routing id carries none): it must find the
/// handler's answer whatever the socket type and frame count, as asking every frame does, and
/// hand it to `keep` before the message is kept or dropped. The NULL mechanism with a ZAP
/// domain goes through the handler, which the test answers itself (over ipc: inproc
/// connections have no handshake).
@Suite("The ZAP User-Id of a received message, asked of one frame")
struct ReceivedUserIDTests {
  /// Server and client socket types: a ROUTER (routing id first), and two that add no frame.
  static let pairs: [(SocketType, SocketType)] = [
    (.router, .dealer), (.dealer, .dealer), (.pull, .push),
  ]

  @Test("each frame count comes with the handler's User-Id", arguments: pairs)
  func userIDOfEveryShape(server serverType: SocketType, client clientType: SocketType)
    throws
  {
    let context = try Context()
    let handler = try Socket(context, .reply)
    try handler.bind("inproc://zeromq.zap.01")
    let server = try Socket(context, serverType)
    try server.setZapDomain("test")
    let endpoint = try server.bindFresh(.ipc)
    let client = try Socket(context, clientType)
    try client.connect(endpoint)
    // The ZAP request: version, request id, domain, address, routing id, mechanism.
    let request = try handler.receiveMultipart(within: 5000)
    try #require(request.count >= 6)
    #expect(request[5] == bytes("NULL"))
    _ = try handler.send(
      frames: [bytes("1.0"), request[1], bytes("200"), bytes("OK"), bytes("alice"), []])
    let routed = serverType == .router ? 1 : 0
    for count in 1...3 {
      for keepIt in [true, false] where routed == 1 || keepIt {
        _ = try client.send(frames: (0..<count).map { [UInt8($0), 7] })
        var poller = Poller()
        poller.add(server)
        try poller.poll(timeout: .seconds(5))
        var asked = false
        var seen: String?
        let received = try #require(
          try server.receiveMultipartWithUserID(
            dontWait: true,
            keep: { _, userID in
              asked = true
              seen = userID
              return keepIt
            }), "no message within 5 s")
        #expect(received.userID == "alice", "\(count) frames, kept: \(keepIt)")
        #expect(received.kept == keepIt)
        #expect(received.frames.count == (keepIt ? count + routed : 1))
        #expect(received.bytes == (routed == 1 ? 2 * count : 2 * (count - 1)))
        // `keep` is asked on a message's second frame: with the User-Id found by then.
        #expect(asked == (routed == 1 || count > 1))
        if asked { #expect(seen == "alice") }
      }
    }
  }

  @Test("without a ZAP handler a message has no User-Id", arguments: pairs)
  func noUserIDWithoutZap(server serverType: SocketType, client clientType: SocketType)
    throws
  {
    let context = try Context()
    let server = try Socket(context, serverType)
    let endpoint = try server.bindFresh(.ipc)
    let client = try Socket(context, clientType)
    try client.connect(endpoint)
    for count in 1...3 {
      _ = try client.send(frames: (0..<count).map { [UInt8($0)] })
      var poller = Poller()
      poller.add(server)
      try poller.poll(timeout: .seconds(5))
      let received = try #require(try server.receiveMultipartWithUserID(dontWait: true))
      #expect(received.userID == nil)
      #expect(received.frames.count == count + (serverType == .router ? 1 : 0))
    }
  }
}
