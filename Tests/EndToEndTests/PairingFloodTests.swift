import Foundation
import TenFootProtocol
import TestSupport
import Testing
import ZeroMQ

/// The pairing endpoint takes anyone's messages, so it limits the rate per source address.
@Suite("Pairing endpoint flood", .serialized)
struct PairingFloodTests {
  /// Sends `count` hellos on a fresh DEALER to the pairing endpoint and counts the replies
  /// that arrive within `seconds`.
  static func replies(to count: Int, at endpoint: String, within seconds: Double) throws -> Int {
    let context = try Context()
    defer { context.shutdown() }
    let dealer = try Socket(context, .dealer)
    defer { dealer.close() }
    try dealer.connect(endpoint)
    for seq in 1...count {
      try dealer.send(
        Tenfoot_V1_Envelope(
          sender: "flooder", seq: UInt64(seq), sentAtNanoseconds: 0, body: .hello(.init())
        ).encoded())
    }
    var poller = Poller()
    poller.add(dealer)
    var replies = 0
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      try poller.poll(timeout: .milliseconds(50))
      while try dealer.receive(dontWait: true) != nil { replies += 1 }
    }
    return replies
  }

  @Test(
    "a connection sending 200 pairing messages at once gets about its burst answered; a new one is still served"
  )
  func throttled() throws {
    let stack = try SecureStack()
    let flooded = try Self.replies(to: 200, at: stack.pairing, within: 1.0)
    #expect(flooded >= 1 && flooded <= 20, "burst of 10 plus 5/s: \(flooded) replies to 200")
    try stack.broker.waitForErrorLine("the drop logged") {
      $0.contains("dropped pairing request: over the rate per address or in all")
    }
    // Everyone else is still answered: a new connection's first message gets its reply.
    #expect(try Self.replies(to: 1, at: stack.pairing, within: 2.0) == 1)
  }
}
