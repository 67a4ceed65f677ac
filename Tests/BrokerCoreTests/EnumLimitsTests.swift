import FocusEngine
import TenFootProtocol
import Testing

@testable import BrokerCore

/// Navigation models and focus effects a peer sends that this broker does not know.
@Suite("Unknown navigation and focus effect values")
struct EnumLimitsTests {
  static func register(_ change: (inout Tenfoot_V1_Layout) -> Void) -> Tenfoot_V1_Envelope {
    var wire = Tenfoot_V1_Layout(
      Layout(
        items: [
          Item(id: "a", frame: Rect(x: 0, y: 0, width: 10, height: 10)),
          Item(id: "b", frame: Rect(x: 20, y: 0, width: 10, height: 10)),
        ],
        groups: [Group(id: "g", items: ["a"], groups: [Group(id: "h", items: ["b"])])]))
    change(&wire)
    var request = Tenfoot_V1_RegisterScreen()
    request.screenID = "main"
    request.layout = wire
    return Tenfoot_V1_Envelope(
      sender: "t", seq: 1, sentAtNanoseconds: 1, body: .registerScreen(request))
  }

  @Test(
    "each is INVALID_LAYOUT naming the field and the allowed values",
    arguments: [
      (0, "navigation: unknown value 5 (allowed: tvos, ipados)"),
      (1, "items[1].focusEffect: unknown value 9 (allowed: halo, highlight, lift)"),
      (2, "groups[0].groups[0].navigation: unknown value 7 (allowed: tvos, ipados)"),
    ])
  func layouts(_ which: Int, message: String) throws {
    let envelope = Self.register { wire in
      switch which {
      case 0: wire.navigation = .UNRECOGNIZED(5)
      case 1: wire.items[1].focusEffect = .UNRECOGNIZED(9)
      default: wire.groups[0].groups[0].navigation = .UNRECOGNIZED(7)
      }
    }
    let problem = try #require(InputLimits.problem(envelope))
    #expect(problem.code == .invalidLayout)
    #expect(problem.message == message)
  }

  @Test("known values pass, and the engine reads them")
  func known() throws {
    let envelope = Self.register { wire in
      wire.navigation = .ipados
      wire.items[0].focusEffect = .highlight
      wire.items[0].cornerRadius = 6
      wire.groups[0].navigation = .tvos
    }
    #expect(InputLimits.problem(envelope) == nil)
    guard case .registerScreen(let request) = envelope.body else { return }
    let layout = Layout(wire: request.layout)
    #expect(layout.navigation == .ipados && layout.groups[0].navigation == .tvos)
    #expect(layout.items[0].focusEffect == .highlight && layout.items[0].cornerRadius == 6)
    #expect(layout.items[1].focusEffect == nil && layout.items[1].cornerRadius == nil)
    #expect(Tenfoot_V1_Layout(layout) == request.layout)
  }

  @Test("a patch adding an item or a group with an unknown value is refused")
  func patches() throws {
    var item = Tenfoot_V1_PatchOperation()
    item.addItem = .with { $0.item = .with { $0.focusEffect = .UNRECOGNIZED(4) } }
    var group = Tenfoot_V1_PatchOperation()
    group.addGroup = .with { $0.group = .with { $0.navigation = .UNRECOGNIZED(3) } }
    for (operations, message) in [
      ([item], "operations[0].item.focusEffect: unknown value 4 (allowed: halo, highlight, lift)"),
      (
        [item.removing(), group],
        "operations[1].group.navigation: unknown value 3 (allowed: tvos, ipados)"
      ),
    ] {
      var patch = Tenfoot_V1_PatchLayout()
      patch.screenID = "main"
      patch.operations = operations
      let envelope = Tenfoot_V1_Envelope(
        sender: "t", seq: 1, sentAtNanoseconds: 1, body: .patchLayout(patch))
      let problem = try #require(InputLimits.problem(envelope))
      #expect(problem.code == .invalidLayout && problem.message == message)
    }
  }
}

extension Tenfoot_V1_PatchOperation {
  /// A harmless operation in the same list position.
  fileprivate func removing() -> Tenfoot_V1_PatchOperation {
    var operation = Tenfoot_V1_PatchOperation()
    operation.removeItem = "a"
    return operation
  }
}
