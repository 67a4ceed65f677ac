import FocusEngine
import Foundation
import TenFootClient
import TenFootProtocol
import TestSupport
import Testing
import ZeroMQ

/// Messages larger than the broker's message size limit travel in parts (docs/protocol.md,
/// "Large messages in parts"): a CURVE broker on TCP with its default limits, real processes,
/// the Swift client library and raw DEALERs.
@Suite("Messages in parts across processes", .serialized)
struct MessagePartsTests {
  /// A 100,000-item registration (several MiB, far over the 256 KiB limit) through the client
  /// library.
  static func registration(_ screen: String, rows: Int, columns: Int) -> Tenfoot_V1_RegisterScreen {
    var request = Tenfoot_V1_RegisterScreen()
    request.screenID = screen
    request.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: rows, columns: columns))
    return request
  }

  /// A raw CURVE DEALER with `peer`'s key.
  static func dealer(_ stack: SecureStack, _ peer: SecurityAttackTests.Peer) throws -> Socket {
    let dealer = try Socket(peer.context, .dealer)
    try dealer.setCurveClient(serverKey: try stack.brokerKey(), keyPair: peer.keys)
    try dealer.connect(stack.control)
    return dealer
  }

  /// The next reply on `dealer` within 10 s.
  static func reply(_ dealer: Socket, _ what: String) throws -> Tenfoot_V1_Envelope {
    let frame = try #require(try SocketWait.message(on: dealer, within: 10), "no reply to \(what)")
    return try Tenfoot_V1_Envelope.decode(frame[0])
  }

  @Test("a 100,000-item layout is registered in parts and applied whole; others are answered")
  func largeLayoutInParts() throws {
    let stack = try SecureStack()
    let screen = try SecurityAttackTests.Peer(stack, name: "big", role: "screen")
    let request = Self.registration("big", rows: 100, columns: 1000)
    let bytes = Tenfoot_V1_Envelope(
      sender: "s", seq: 1, sentAtNanoseconds: 1, body: .registerScreen(request)
    ).encoded().count
    #expect(bytes > 4 * Int(WireProtocol.defaultMaxMessageSize), "\(bytes) bytes")
    guard
      case .ack(let ack) = try screen.control.request(
        .registerScreen(request), timeout: .seconds(60))
    else {
      Issue.record("the registration in parts was not acknowledged")
      return
    }
    #expect(ack.focused == "r0c0" && ack.screenID == "big")
    var snapshot = Tenfoot_V1_SnapshotRequest()
    snapshot.screenID = "big"
    guard
      case .snapshot(let state) = try screen.control.request(
        .snapshotRequest(snapshot), timeout: .seconds(30))
    else {
      Issue.record("no snapshot of the registered layout")
      return
    }
    #expect(state.layout.items.count == 100_000)
    #expect(state.layout.items.last?.id == "r99c999")
  }

  @Test("a screen process registers a layout over the limit through its client, in parts")
  func screenProcessInParts() throws {
    let stack = try SecureStack()
    let screen = try stack.screen(rows: 20, columns: 1000)
    _ = try screen.waitForFrame(timeout: 60, "the large layout's first frame") {
      $0.focused == "r0c0"
    }
  }

  @Test("parts out of order are refused PARTS_REFUSED and nothing of the message is applied")
  func outOfOrderRefused() throws {
    let stack = try SecureStack()
    let peer = try SecurityAttackTests.Peer(stack, name: "tv2", role: "screen")
    let dealer = try Self.dealer(stack, peer)
    defer { dealer.close() }
    let envelope = Tenfoot_V1_Envelope(
      sender: "s", seq: 5, sentAtNanoseconds: 1,
      body: .registerScreen(Self.registration("tv2", rows: 20, columns: 1000)))
    let frames = try #require(MessageParts.frames(of: envelope))
    #expect(frames.count >= 3)
    try dealer.send(frames[0])
    try dealer.send(frames[2])
    let refused = try Self.reply(dealer, "the part out of order")
    guard case .error(let error) = refused.body else {
      Issue.record("expected PARTS_REFUSED, got \(refused.bodyName)")
      return
    }
    #expect(error.code == .partsRefused && refused.replyTo == 5, "\(error)")
    // The rest of the broken message is dropped unanswered; a Hello is answered next.
    for frame in frames.dropFirst(3) { try dealer.send(frame) }
    try dealer.send(
      Tenfoot_V1_Envelope(sender: "s", seq: 6, sentAtNanoseconds: 1, body: .hello(.init()))
        .encoded())
    let welcome = try Self.reply(dealer, "the Hello after the broken message")
    #expect(welcome.replyTo == 6 && welcome.bodyName == "welcome", "\(welcome.bodyName)")
    if case .welcome(let body) = welcome.body {
      #expect(!body.screens.contains("tv2"), "nothing of the broken registration was applied")
    }
    // Sent again from part 0, in order: applied.
    for frame in frames { try dealer.send(frame) }
    let ack = try Self.reply(dealer, "the registration sent again")
    #expect(ack.replyTo == 5 && ack.bodyName == "ack", "\(ack)")
  }

  @Test("a whole message over the limit is not read: the broker drops the connection")
  func wholeOverLimitDropped() throws {
    let stack = try SecureStack()
    let peer = try SecurityAttackTests.Peer(stack, name: "tv3", role: "screen")
    let dealer = try Self.dealer(stack, peer)
    defer { dealer.close() }
    let whole = Tenfoot_V1_Envelope(
      sender: "s", seq: 9, sentAtNanoseconds: 1,
      body: .registerScreen(Self.registration("tv3", rows: 20, columns: 1000))
    ).encoded()
    #expect(whole.count > Int(WireProtocol.defaultMaxMessageSize))
    try dealer.send(whole)
    #expect(
      try SocketWait.message(on: dealer, within: 3) == nil, "an oversized message was answered")
    // Another peer is served as usual.
    #expect(try peer.refusal(.hello(.init())) == nil)
  }
}
