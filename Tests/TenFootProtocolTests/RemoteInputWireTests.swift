import FocusEngine
import TenFootProtocol
import Testing

/// A remote's input on the wire: every `RemoteInput` goes out as a wire event and comes back
/// through the broker's mapping (`KeyMapping`) unchanged, and the bytes are those of the wire
/// events the remotes built field by field.
@Suite("Wire mappings: remote input")
struct RemoteInputWireTests {
  /// One of every kind of input, every button, phase and edit among them.
  static let inputs: [RemoteInput] = {
    var inputs: [RemoteInput] = []
    for button in RemoteButton.allCases {
      for phase in ButtonPhase.allCases {
        inputs.append(.button(button, phase, at: 1_000 + UInt64(inputs.count)))
      }
    }
    for phase in TouchRecognizer.Phase.allCases {
      inputs.append(.touch(phase, x: -1, y: 1, at: 0))
      inputs.append(.touch(phase, x: 0.25, y: -0.5, at: UInt64.max))
    }
    for phase in PointerPhase.allCases {
      inputs.append(.pointer(PointerEvent(phase, x: 812.5, y: -440, at: 7)))
      inputs.append(
        .pointer(PointerEvent(phase, x: -3, y: 2.5, relative: true, buttons: 5, at: 8)))
    }
    inputs += [.text(.set("héllo")), .text(.set("")), .text(.append("ab")), .text(.clear)]
    return inputs
  }()

  @Test("every remote input maps to the wire and back, through the broker's mapping, unchanged")
  func roundTrip() throws {
    for input in Self.inputs {
      let wire = Tenfoot_V1_Input.OneOf_Event(input)
      #expect(try KeyMapping.input(for: wire).get() == input, "\(input)")
      // And through the bytes, as the broker reads them.
      var message = Tenfoot_V1_Input()
      message.event = wire
      let decoded = try Tenfoot_V1_Input(serializedBytes: try message.serializedBytes() as [UInt8])
      let event = try #require(decoded.event, "\(input) lost its event on the wire")
      #expect(try KeyMapping.input(for: event).get() == input, "\(input) through the bytes")
    }
  }

  @Test("the wire events are field for field those the remotes built by hand")
  func sameBytes() throws {
    var key = Tenfoot_V1_KeyEvent()
    key.key = .playPause
    key.phase = .held
    key.timestampNs = 42
    var touch = Tenfoot_V1_TouchEvent()
    touch.phase = .moved
    touch.x = 0.3
    touch.y = -1
    touch.timestampNs = 43
    var pointer = Tenfoot_V1_PointerEvent()
    pointer.phase = .scroll
    pointer.x = 1
    pointer.y = -120
    pointer.buttons = 1
    pointer.timestampNs = 44
    var set = Tenfoot_V1_TextInput()
    set.set = "a"
    var append = Tenfoot_V1_TextInput()
    append.append = "b"
    var clear = Tenfoot_V1_TextInput()
    clear.clear = true
    let cases: [(RemoteInput, Tenfoot_V1_Input.OneOf_Event)] = [
      (.button(.playPause, .held, at: 42), .key(key)),
      (.touch(.moved, x: 0.3, y: -1, at: 43), .touch(touch)),
      (.pointer(PointerEvent(.scroll, x: 1, y: -120, buttons: 1, at: 44)), .pointer(pointer)),
      (.text(.set("a")), .text(set)), (.text(.append("b")), .text(append)),
      (.text(.clear), .text(clear)),
    ]
    for (input, expected) in cases {
      var mapped = Tenfoot_V1_Input()
      mapped.event = Tenfoot_V1_Input.OneOf_Event(input)
      var built = Tenfoot_V1_Input()
      built.event = expected
      let bytes: [UInt8] = try mapped.serializedBytes()
      #expect(bytes == (try built.serializedBytes() as [UInt8]), "\(input)")
    }
  }
}
