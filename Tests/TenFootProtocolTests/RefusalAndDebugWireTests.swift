import FocusEngine
import TenFootProtocol
import Testing

/// The client's domain types for what the wire carries as `Error` and a debug query: every
/// value maps to the wire and back unchanged, and a newer broker's unknown code survives.
@Suite("Wire mappings: refusals and debug queries")
struct RefusalAndDebugWireTests {
  @Test(
    "every wire error code maps to a refusal code and back",
    arguments: Tenfoot_V1_ErrorCode.allCases)
  func codes(_ wire: Tenfoot_V1_ErrorCode) {
    let code = BrokerRefusal.Code(wire: wire)
    #expect(Tenfoot_V1_ErrorCode(code) == wire)
    #expect(wire.name == code.name)
    #expect(code != .unrecognized(wire.rawValue), "\(wire) is a code the client knows")
  }

  @Test("an unknown code keeps its number both ways and is named by it")
  func unknownCode() {
    let code = BrokerRefusal.Code(wire: .UNRECOGNIZED(99))
    #expect(code == .unrecognized(99))
    #expect(Tenfoot_V1_ErrorCode(code) == .UNRECOGNIZED(99))
    #expect(code.name == "code_99")
  }

  @Test("a refusal keeps its code, message and back-off both ways")
  func refusal() {
    var wire = Tenfoot_V1_Error()
    wire.code = .pairingBackoff
    wire.message = "wait"
    wire.retryAfterMs = 1500
    let refusal = BrokerRefusal(wire: wire)
    #expect(refusal == BrokerRefusal(.pairingBackoff, "wait", retryAfter: .milliseconds(1500)))
    #expect(refusal.description == "pairing_backoff: wait")
    #expect(Tenfoot_V1_Error(refusal) == wire)
    #expect(BrokerRefusal(wire: Tenfoot_V1_Error()).retryAfter == .zero)
  }

  @Test(
    "every debug query maps to the wire and back",
    arguments: [DebugQuery.explainItem("r0c1"), .tabLoop, .groupTree, .dryRun("shift-tab")])
  func debugQueries(_ query: DebugQuery) {
    #expect(DebugQuery(wire: Tenfoot_V1_DebugRequest.OneOf_Query(query)) == query)
  }
}
