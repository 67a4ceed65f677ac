import FocusEngine
import Foundation
import TenFootProtocol
import Testing

@Suite("Wire: accessibility fields and announcements")
struct AccessibilityWireTests {
  @Test("a layout's accessibility fields and verbosity survive the wire, unset ones stay unset")
  func layoutRoundTrip() throws {
    let layout = Layout(
      items: [
        Item(
          id: "a", title: "▶", frame: Rect(x: 0, y: 0, width: 10, height: 10),
          accessibility: ItemAccessibility(
            label: "Play", hint: "Starts it", value: "", traits: [.button, .image])),
        Item(id: "b", frame: Rect(x: 20, y: 0, width: 10, height: 10)),
        Item(
          id: "c", frame: Rect(x: 40, y: 0, width: 10, height: 10),
          accessibility: ItemAccessibility(traits: [])),
      ],
      groups: [
        Group(id: "g", items: ["a"], accessibilityLabel: "Player"),
        Group(id: "h", items: ["b"], accessibilityLabel: ""), Group(id: "i", items: ["c"]),
      ],
      verbosity: .high)
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = "main"
    register.layout = Tenfoot_V1_Layout(layout)
    let envelope = Tenfoot_V1_Envelope(
      sender: "t", seq: 1, sentAtNanoseconds: 0, replyTo: 0, body: .registerScreen(register))
    guard
      case .registerScreen(let decoded) = try Tenfoot_V1_Envelope.decode(envelope.encoded()).body
    else {
      Issue.record("not a registration")
      return
    }
    let back = Layout(wire: decoded.layout)
    #expect(back == layout)
    #expect(Layout(wire: Tenfoot_V1_Layout(Layout(items: []))).verbosity == .normal)
  }

  @Test("an announcement keeps its parts and interrupt flag, and carries its text")
  func announcementRoundTrip() throws {
    let announcement = Announcement(
      parts: [
        AnnouncementPart(.group, "Trending"), AnnouncementPart(.label, "Quiet Hours"),
        AnnouncementPart(.position, "3 of 11"), AnnouncementPart(.hint, "Select to open"),
      ], interrupt: true)
    let wire = Tenfoot_V1_Announcement(announcement)
    #expect(wire.text == "Trending, Quiet Hours, 3 of 11. Select to open")
    var delta = Tenfoot_V1_StateDelta()
    delta.announcement = wire
    let envelope = Tenfoot_V1_Envelope(
      sender: "t", seq: 1, sentAtNanoseconds: 0, replyTo: 0, body: .delta(delta))
    guard case .delta(let decoded) = try Tenfoot_V1_Envelope.decode(envelope.encoded()).body else {
      Issue.record("not a delta")
      return
    }
    #expect(Announcement(wire: decoded.announcement) == announcement)
    var unknown = Tenfoot_V1_Announcement()
    unknown.parts = [.with { $0.kind = .UNRECOGNIZED(99) }]
    #expect(Announcement(wire: unknown) == nil, "parts of unknown kinds are dropped")
  }
}

@Suite("Wire: item content")
struct ItemContentWireTests {
  @Test("an item's content survives the wire; an item without content sends none")
  func roundTrip() throws {
    let content = ItemContent(
      subtitle: "2021", body: "Long text", badge: "New", image: "a/b.png", accent: "#112233")
    let items = [
      Item(id: "a", frame: Rect(x: 0, y: 0, width: 10, height: 10), content: content),
      Item(
        id: "b", frame: Rect(x: 20, y: 0, width: 10, height: 10),
        content: ItemContent(badge: "")),
      Item(id: "c", frame: Rect(x: 40, y: 0, width: 10, height: 10)),
    ]
    let wire = Tenfoot_V1_Layout(Layout(items: items))
    let bytes: [UInt8] = try wire.serializedBytes()
    let decoded = Layout(wire: try Tenfoot_V1_Layout(serializedBytes: bytes))
    #expect(decoded.items.map(\.content) == items.map(\.content))
    #expect(!wire.items[2].hasContent)
  }
}
