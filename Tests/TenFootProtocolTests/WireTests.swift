import FocusEngine
import Foundation
import TenFootProtocol
import TestSupport
import Testing

@Suite("Wire format: envelopes, mappings, keys")
struct WireTests {
  @Test("an envelope round-trips with every field")
  func envelopeRoundTrip() throws {
    var input = Tenfoot_V1_Input()
    input.screenID = "main"
    input.key.key = .select
    input.key.phase = .up
    input.key.timestampNs = 123_456_789
    let envelope = Tenfoot_V1_Envelope(
      sender: "remote:1", seq: 7, sentAtNanoseconds: 99, replyTo: 3, body: .input(input))
    let decoded = try Tenfoot_V1_Envelope.decode(envelope.encoded())
    #expect(decoded == envelope)
    #expect(decoded.protocolVersion == WireProtocol.version)
    #expect(decoded.bodyName == "input")
  }

  @Test(
    "malformed bytes are a ProtocolError, never a crash",
    arguments: [
      [0xFF], [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F], Array("hello world".utf8),
      [0x52, 0x05, 0x0A, 0x03],
    ] as [[UInt8]])
  func malformed(_ bytes: [UInt8]) {
    #expect(throws: ProtocolError.self) { try Tenfoot_V1_Envelope.decode(bytes) }
  }

  @Test("a layout survives engine → wire → engine unchanged")
  func layoutRoundTrip() {
    var layout = TestLayouts.grid(rows: 2, columns: 3)
    layout.items[1].available = false
    layout.items[2].toggles = false
    layout.items[3].selected = true
    layout.items[4].kind = .textField
    layout.items[5].kind = .label
    layout.groups = [Group(id: "top", items: ["r0c0", "r0c1"], groups: [Group(id: "inner")])]
    #expect(Layout(wire: Tenfoot_V1_Layout(layout)) == layout)
  }

  @Test("an added item's group and place (before another) survive engine → wire → engine")
  func addItemRoundTrip() throws {
    let item = Item(id: "x", frame: Rect(x: 0, y: 0, width: 1, height: 1))
    let patch = LayoutPatch([
      .addItem(item, group: "row", before: "r0"), .addItem(item, group: nil, before: nil),
    ])
    #expect(try LayoutPatch(wire: patch.operations.map(Tenfoot_V1_PatchOperation.init)) == patch)
  }

  @Test("every display state maps both ways", arguments: FocusDisplayState.allCases)
  func displayStates(_ state: FocusDisplayState) {
    #expect(FocusDisplayState(wire: Tenfoot_V1_FocusDisplayState(state)) == state)
  }

  @Test("every remote button maps to its own wire key and back", arguments: RemoteButton.allCases)
  func buttons(_ button: RemoteButton) {
    #expect(RemoteButton(wire: Tenfoot_V1_Key(button)) == button)
    #expect(Tenfoot_V1_Key(button).name == button.name)
  }

  @Test("every wire key but the unspecified one is a remote button")
  func wireKeys() {
    let keys = Tenfoot_V1_Key.allCases.filter { $0 != .unspecified }
    #expect(Set(keys.compactMap(RemoteButton.init(wire:))) == Set(RemoteButton.allCases))
    #expect(RemoteButton(wire: .unspecified) == nil)
    #expect(RemoteButton(wire: .UNRECOGNIZED(99)) == nil)
    #expect(Tenfoot_V1_Key.UNRECOGNIZED(99).name == "unknown")
  }

  @Test("key and touch phases map both ways")
  func phases() {
    for phase in ButtonPhase.allCases {
      #expect(ButtonPhase(wire: Tenfoot_V1_KeyPhase(phase)) == phase)
    }
    for phase in TouchRecognizer.Phase.allCases {
      #expect(TouchRecognizer.Phase(wire: Tenfoot_V1_TouchPhase(phase)) == phase)
    }
    #expect(ButtonPhase(wire: .unspecified) == nil)
    #expect(TouchRecognizer.Phase(wire: .unspecified) == nil)
  }

  @Test("effect summaries read as sentences")
  func summaries() {
    let moved = Tenfoot_V1_FocusEffect(
      .focusChanged(FocusUpdateContext(previous: "a", next: "b", heading: .right)))
    #expect(moved.summary == "focus a → b (right)")
    #expect(Tenfoot_V1_FocusEffect(.movementFailed(.up)).summary == "bump up: no item that way")
    #expect(
      Tenfoot_V1_FocusEffect(.selectionChanged(id: "x", selected: false)).summary == "x deselected")
    #expect(Tenfoot_V1_FocusEffect(.doubleTap(.playPause)).summary == "double tap play-pause")
    #expect(Tenfoot_V1_FocusEffect(.playPause(nil)).summary == "play/pause")
    var rejected = Tenfoot_V1_FocusEffect()
    rejected.layoutRejected = "no items"
    #expect(rejected.summary == "layout rejected: no items")
    #expect(Tenfoot_V1_FocusEffect().summary == "nothing", "an effect of no kind this side knows")
  }

  @Test("screen ids: allowed characters and length")
  func screenIDs() {
    #expect(ScreenID.problem(with: "living-room.tv:2") == nil)
    #expect(ScreenID.problem(with: "hall/tv@home") == nil)
    #expect(ScreenID.problem(with: "") != nil)
    #expect(ScreenID.problem(with: "a b") != nil)
    #expect(ScreenID.problem(with: "main\nforged") != nil)
    #expect(ScreenID.problem(with: String(repeating: "x", count: 65)) != nil)
  }
}

@Suite("Layout files")
struct LayoutFileTests {
  @Test("the grid file loads")
  func loads() throws {
    let layout = try LayoutFile.decode(Data(TestLayouts.gridJSON(rows: 3, columns: 3).utf8))
    #expect(layout == TestLayouts.grid(rows: 3, columns: 3).withTitles(from: layout))
    #expect(layout.items.count == 9)
    #expect(layout.initialFocus == "r0c0")
  }

  @Test("a layout can come from a pipe (process substitution), not only a regular file")
  func loadsFromPipe() throws {
    let pipe = Pipe()
    pipe.fileHandleForWriting.write(Data(TestLayouts.gridJSON(rows: 1, columns: 2).utf8))
    try pipe.fileHandleForWriting.close()
    let path = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
    #expect(try LayoutFile.load(path: path).items.map(\.id) == ["r0c0", "r0c1"])
  }

  @Test("a missing file is reported with the file and the reason")
  func missingFile() {
    #expect {
      try LayoutFile.load(path: "/nonexistent/grid.json")
    } throws: { error in
      "\(error)".hasPrefix("/nonexistent/grid.json: ") && "\(error)".contains("No such file")
    }
  }

  @Test(
    "bad files name the path and the reason",
    arguments: [
      (#"{"items": [{"id": "a", "frame": [0, 0, 1, 1], "colour": "red"}]}"#, "items[0]", "colour"),
      (#"{"items": [], "theme": 1}"#, "", "theme"),
      (#"{"items": [{"id": "a"}]}"#, "items[0].frame", "missing"),
      (#"{"items": [{"id": "a", "frame": [0, 0, 1]}]}"#, "items[0].frame", "4 numbers"),
      (#"{"items": [{"id": "a", "frame": [0, 0, -5, 1]}]}"#, "items[0].frame", "negative"),
      (
        #"{"items": [{"id": "a", "frame": [0,0,1,1]}, {"id": "a", "frame": [0,0,1,1]}]}"#,
        "items[1]", "duplicate"
      ),
      (#"{"items": [], "initialFocus": "zzz"}"#, "initialFocus", "zzz"),
      (#"{"items": [ "#, "", "JSON"),
    ])
  func rejects(_ json: String, _ path: String, _ reasonFragment: String) {
    let error = #expect(throws: LayoutFileError.self) {
      try LayoutFile.decode(Data(json.utf8), file: "t.json")
    }
    guard let error else { return }
    #expect(error.path.hasPrefix(path), "path was \(error.path)")
    #expect(
      error.description.lowercased().contains(reasonFragment.lowercased()), "\(error.description)")
    #expect(error.description.hasPrefix("t.json: "))
  }
}

extension Layout {
  /// This layout with titles copied from `other` (the grid JSON and builder share titles).
  fileprivate func withTitles(from other: Layout) -> Layout {
    var copy = self
    for index in copy.items.indices { copy.items[index].title = other.items[index].title }
    return copy
  }
}
