import BrokerDomain
import FocusEngine
import Foundation
import Logging
import SwiftProtobuf
import TenFootProtocol
import TestSupport
import Testing
import ZeroMQ

@testable import BrokerCore

@Suite("Malformed input table: each case gets its typed error, service goes on")
struct BadInputTableTests {
  static func envelope(_ body: Tenfoot_V1_Envelope.OneOf_Body, sender: String = "fuzz")
    -> Tenfoot_V1_Envelope
  {
    Tenfoot_V1_Envelope(sender: sender, seq: 7, sentAtNanoseconds: 1, body: body)
  }

  static func layout(_ change: (inout Tenfoot_V1_Layout) -> Void) -> [UInt8] {
    var wire = Tenfoot_V1_Layout(TestLayouts.grid(rows: 2, columns: 2))
    change(&wire)
    var request = Tenfoot_V1_RegisterScreen()
    request.screenID = "main"
    request.layout = wire
    return envelope(.registerScreen(request)).encoded()
  }

  static func key(_ change: (inout Tenfoot_V1_KeyEvent) -> Void) -> [UInt8] {
    var input = Tenfoot_V1_Input()
    input.screenID = "main"
    var event = Tenfoot_V1_KeyEvent()
    event.key = .right
    event.phase = .down
    change(&event)
    input.key = event
    return envelope(.input(input)).encoded()
  }

  static func pointer(_ change: (inout Tenfoot_V1_PointerEvent) -> Void) -> [UInt8] {
    var input = Tenfoot_V1_Input()
    input.screenID = "main"
    var event = Tenfoot_V1_PointerEvent()
    event.phase = .moved
    event.x = 10
    event.y = 10
    change(&event)
    input.pointer = event
    return envelope(.input(input)).encoded()
  }

  static func nested(_ depth: Int) -> Tenfoot_V1_Group {
    var group = Tenfoot_V1_Group()
    group.id = "g\(depth)"
    if depth > 1 { group.groups = [nested(depth - 1)] }
    return group
  }

  static let cases: [(name: String, frames: [[UInt8]], code: Tenfoot_V1_ErrorCode)] = [
    ("truncated", [Array(layout { _ in }.dropLast(5))], .malformed),
    ("two frames", [key { _ in }, key { _ in }], .malformed),
    // Field 13 (input) sent as a varint instead of a message: a wrong wire type.
    ("wrong type", [[0x08, 0x01, 0x68, 0x05]], .malformed),
    ("garbage", [[0xFF, 0xFF, 0xFF, 0xFF, 0xFF]], .malformed),
    ("NaN frame", [layout { $0.items[0].frame.x = .nan }], .invalidLayout),
    ("infinite canvas", [layout { $0.canvas.width = .infinity }], .invalidLayout),
    (
      "unknown focus effect", [layout { $0.items[1].focusEffect = .UNRECOGNIZED(9) }],
      .invalidLayout
    ),
    ("unknown navigation", [layout { $0.navigation = .UNRECOGNIZED(5) }], .invalidLayout),
    ("unknown key", [key { $0.key = .UNRECOGNIZED(999) }], .invalidInput),
    ("unknown phase", [key { $0.phase = .UNRECOGNIZED(42) }], .invalidInput),
    ("NaN pointer", [pointer { $0.x = .nan }], .invalidInput),
    ("infinite pointer", [pointer { $0.y = -.infinity }], .invalidInput),
    ("unknown pointer phase", [pointer { $0.phase = .UNRECOGNIZED(77) }], .invalidInput),
    ("unspecified pointer phase", [pointer { $0.phase = .unspecified }], .invalidInput),
    (
      "unknown pointer effect", [layout { $0.items[0].pointerEffect = .UNRECOGNIZED(9) }],
      .invalidLayout
    ),
    ("bad pointer shape", [layout { $0.items[0].pointerShape = "two words" }], .invalidLayout),
    (
      "deep nesting", [layout { $0.groups = [nested(InputLimits.maximumDepth + 1)] }],
      .invalidLayout
    ),
    (
      "too many items",
      [
        layout { wire in
          let item = wire.items[0]
          wire.items = (0...Layout.maximumItemCount).map { index in
            var copy = item
            copy.id = "i\(index)"
            return copy
          }
        }
      ], .invalidLayout
    ),
    (
      "long sender",
      [envelope(.hello(.init()), sender: String(repeating: "x", count: 300)).encoded()],
      .malformed
    ),
  ]

  @Test("every malformed case is answered with its error code", arguments: cases.indices)
  func table(_ index: Int) throws {
    let entry = Self.cases[index]
    let harness = try BrokerLoopTests.Harness(transport: "inproc")
    let reply = try harness.roundTrip(entry.frames)
    guard case .error(let error) = reply.body else {
      Issue.record("\(entry.name): expected an error, got \(reply.bodyName)")
      return
    }
    #expect(error.code == entry.code, "\(entry.name): \(error.message)")
    // And the broker still serves a good request.
    let registered = try harness.register(TestLayouts.grid(rows: 2, columns: 2))
    #expect(registered.bodyName == "ack", "\(entry.name): then \(registered)")
  }

  @Test("an oversized frame drops only the sender's connection (ZMQ_MAXMSGSIZE)")
  func oversized() throws {
    let harness = try BrokerLoopTests.Harness(transport: "ipc")
    let endpoint = try #require(harness.broker.controlEndpoints.first)
    let big = try Socket(harness.context, .dealer)
    try big.connect(endpoint)
    try big.send([UInt8](repeating: 0x0A, count: Int(WireProtocol.defaultMaxMessageSize) + 1))
    var poller = Poller()
    poller.add(big)
    try poller.poll(timeout: .milliseconds(500))
    #expect(try big.receive(dontWait: true) == nil, "no reply to an oversized frame")
    let welcome = try harness.request(.hello(.init()))
    #expect(welcome.bodyName == "welcome")
  }

  @Test("log limiter: five lines a second per key, then a count of the suppressed")
  func logLimiter() {
    var limiter = LogLimiter(limit: 5, per: .seconds(1))
    let start = BrokerInstant.origin
    let first = (0..<8).map { _ in limiter.allow("bad", at: start).log }
    #expect(first == [true, true, true, true, true, false, false, false])
    let other = limiter.allow("other", at: start).log
    #expect(other)
    let early = limiter.allow("bad", at: start + .milliseconds(999))
    #expect(!early.log, "the window is a second: still full")
    let later = limiter.allow("bad", at: start + .seconds(1))
    #expect(later.log && later.suppressed == 4)
  }
}
