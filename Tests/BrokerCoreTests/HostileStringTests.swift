import BrokerDomain
import FocusEngine
import TenFootProtocol
import TestSupport
import Testing

@testable import BrokerCore

/// Strings from peers at the broker's door (issue 17): every id and free-text field of a
/// request, with every C0 and C1 control in it, is refused with a typed error naming the field.
@Suite("Hostile strings are refused at the broker's door, naming the field")
struct HostileStringTests {
  /// Every C0 control, DEL and every C1 control.
  static let controls: [Character] = (Array(0x00...0x1F) + Array(0x7F...0x9F)).compactMap {
    Unicode.Scalar(UInt32($0)).map(Character.init)
  }

  /// One request per string field, with `text` in that field: the field's name, the request,
  /// and the code and message prefix the refusal must have.
  static func requests(_ text: String) -> [(
    field: String, envelope: Tenfoot_V1_Envelope, code: Tenfoot_V1_ErrorCode, prefix: String
  )] {
    func envelope(_ body: Tenfoot_V1_Envelope.OneOf_Body, sender: String = "remote:1")
      -> Tenfoot_V1_Envelope
    {
      Tenfoot_V1_Envelope(sender: sender, seq: 1, sentAtNanoseconds: 1, body: body)
    }
    var input = Tenfoot_V1_Input()
    input.screenID = "main"
    input.text = .with { $0.edit = .set(text) }
    var badScreen = Tenfoot_V1_Input()
    badScreen.screenID = "main" + text
    badScreen.key = .with {
      $0.key = .right
      $0.phase = .down
    }
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = "tv" + text
    register.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 2))
    var focus = Tenfoot_V1_FocusRequest()
    focus.screenID = "main"
    focus.item = "r0c1" + text
    var patch = Tenfoot_V1_PatchLayout()
    patch.screenID = "main"
    patch.operations = [.with { $0.removeItem = "r0c1" + text }]
    var debug = Tenfoot_V1_DebugRequest()
    debug.screenID = "main"
    debug.explainItem = "r0c0" + text
    var snapshot = Tenfoot_V1_SnapshotRequest()
    snapshot.screenID = "main" + text
    var hello = Tenfoot_V1_Hello()
    hello.client = "client" + text
    return [
      ("sender", envelope(.hello(.init()), sender: "remote:x" + text), .malformed, "sender: "),
      ("hello.client", envelope(.hello(hello)), .invalidInput, "hello.client: "),
      ("text", envelope(.input(input)), .invalidInput, "text: "),
      ("input.screen_id", envelope(.input(badScreen)), .invalidInput, "input.screen_id: "),
      ("screen_id", envelope(.registerScreen(register)), .invalidLayout, "screen_id: "),
      ("focus.item", envelope(.focusRequest(focus)), .invalidInput, "focus_request.item: "),
      ("patch", envelope(.patchLayout(patch)), .invalidLayout, "operations[0]: "),
      ("debug", envelope(.debugRequest(debug)), .invalidInput, "debug_request.explain_item: "),
      ("snapshot", envelope(.snapshotRequest(snapshot)), .invalidInput, "snapshot_request"),
    ]
  }

  @Test("every C0 and C1 control in every string field is refused", arguments: controls)
  func everyControl(_ control: Character) throws {
    for request in Self.requests("a" + String(control) + "b") {
      let problem = try #require(
        InputLimits.problem(request.envelope), "\(request.field) let U+\(control) through")
      #expect(problem.code == request.code, "\(request.field): \(problem.message)")
      #expect(problem.message.hasPrefix(request.prefix), "\(request.field): \(problem.message)")
    }
  }

  @Test("the same requests with clean strings pass the door")
  func cleanPasses() {
    var input = Tenfoot_V1_Input()
    input.screenID = "main"
    input.text = .with { $0.edit = .set("東京 🎬 Ame\u{301}lie") }
    let envelope = Tenfoot_V1_Envelope(
      sender: "remote:r1@host/2", seq: 1, sentAtNanoseconds: 1, body: .input(input))
    #expect(InputLimits.problem(envelope) == nil)
    let anonymous = Tenfoot_V1_Envelope(
      sender: "", seq: 1, sentAtNanoseconds: 1, body: .hello(.init()))
    #expect(InputLimits.problem(anonymous) == nil)
  }

  @Test("the issue's forged sender is refused MALFORMED, without echoing it")
  func forgedSender() throws {
    let sender =
      "remote:x\n2026-11-23T00:00:00+0000 critical tenfoot.broker: FORGED LINE\u{1B}[31m"
    let envelope = Tenfoot_V1_Envelope(
      sender: sender, seq: 1, sentAtNanoseconds: 1, body: .hello(.init()))
    let problem = try #require(InputLimits.problem(envelope))
    #expect(problem.code == .malformed)
    #expect(
      problem.message == "sender: contains U+000A at position 8 (allowed: A-Z a-z 0-9 - _ . : / @)")
  }

  @Test("typed text with an escape sequence is refused; a layout title names the item")
  func textAndTitle() throws {
    var state = WireBroker(epoch: 1, name: "test")
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = "main"
    var layout = TestLayouts.grid(rows: 1, columns: 3)
    layout.items[1].title = "Esc\u{1B}]0;HACKED\u{07}\u{1B}[2J"
    register.layout = Tenfoot_V1_Layout(layout)
    let refused = state.handle(
      Tenfoot_V1_Envelope(
        sender: "screen:main", seq: 1, sentAtNanoseconds: 1, body: .registerScreen(register)),
      at: .origin)
    guard case .error(let error) = refused.reply else {
      Issue.record("a hostile title was accepted")
      return
    }
    #expect(error.code == .invalidLayout)
    #expect(
      error.message
        == "items[1].title: item \"r0c1\" contains control character U+001B at position 3")
    #expect(refused.publications.isEmpty)

    var input = Tenfoot_V1_Input()
    input.screenID = "main"
    input.text = .with { $0.edit = .append("x\u{1B}]0;OWNED-BY-REMOTE\u{07}\u{1B}[2J") }
    let typed = try #require(
      InputLimits.problem(
        Tenfoot_V1_Envelope(sender: "remote:1", seq: 2, sentAtNanoseconds: 1, body: .input(input))))
    #expect(typed.code == .invalidInput)
    #expect(typed.message == "text: contains control character U+001B at position 1")
  }

  @Test(
    "accessibility labels, hints, values and group labels are refused at the door like titles",
    arguments: ["label", "hint", "value", "group"])
  func accessibilityStrings(field: String) throws {
    var state = WireBroker(epoch: 1, name: "test")
    var layout = TestLayouts.grid(rows: 1, columns: 3)
    layout.groups = [Group(id: "row", items: ["r0c0", "r0c1", "r0c2"])]
    let hostile = "Play\u{1B}]0;HACKED\u{07}"
    switch field {
    case "label": layout.items[2].accessibility.label = hostile
    case "hint": layout.items[2].accessibility.hint = hostile
    case "value": layout.items[2].accessibility.value = hostile
    default: layout.groups[0].accessibilityLabel = "\u{202E}row"
    }
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = "main"
    register.layout = Tenfoot_V1_Layout(layout)
    let refused = state.handle(
      Tenfoot_V1_Envelope(
        sender: "screen:main", seq: 1, sentAtNanoseconds: 1, body: .registerScreen(register)),
      at: .origin)
    guard case .error(let error) = refused.reply else {
      Issue.record("a hostile accessibility \(field) was accepted")
      return
    }
    #expect(error.code == .invalidLayout)
    let path =
      field == "group"
      ? "groups[0].accessibilityLabel: group \"row\" leaves 1 bidirectional control(s) unclosed"
      : "items[2].accessibility\(field.prefix(1).uppercased() + field.dropFirst()): item \"r0c2\" contains control character U+001B at position 4"
    #expect(error.message == path)
    #expect(refused.publications.isEmpty)
  }

  @Test("a pairing name is free text of at most 40 characters")
  func pairingName() {
    #expect(PairingName.problem("Living Room 📺") == nil)
    #expect(PairingName.problem("tv\u{1B}[2J") != nil)
    #expect(PairingName.problem("\u{202E}moc.evil") != nil)
    #expect(PairingName.problem(String(repeating: "n", count: 41)) != nil)
  }
}
