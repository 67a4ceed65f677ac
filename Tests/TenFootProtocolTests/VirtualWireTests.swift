import FocusEngine
import TenFootProtocol
import Testing

@Suite("Wire: virtual groups")
struct VirtualWireTests {
  @Test(
    "a virtual declaration survives engine → wire → engine, each arrangement",
    arguments: [VirtualArrangement.row, .column, .grid(columns: 1000)])
  func roundTrip(arrangement: VirtualArrangement) throws {
    let virtual = VirtualItems(
      count: 1_000_000, origin: Point(x: 60, y: 80), itemSize: Size(width: 300, height: 170),
      spacing: Size(width: 40, height: 20), arrangement: arrangement, titlePrefix: "Title ")
    let layout = Layout(items: [], groups: [Group(id: "rail", virtual: virtual)])
    let bytes: [UInt8] = try Tenfoot_V1_Layout(layout).serializedBytes()
    let decoded = Layout(wire: try Tenfoot_V1_Layout(serializedBytes: bytes))
    #expect(decoded == layout)
    // The whole million-item declaration is about a hundred bytes.
    #expect(bytes.count < 160, "\(bytes.count) bytes")
  }

  @Test("size runs and keyed content survive engine → wire → engine, in O(runs) bytes")
  func runsAndKeys() throws {
    let virtual = VirtualItems(
      count: 10_000_000, itemSize: Size(width: 1, height: 80),
      content: [3: VirtualContent(title: "News", key: "bbc-news-0600"), 4: VirtualContent()],
      sizes: SizeRuns([
        SizeRun(count: 5_000_000, length: 300), SizeRun(count: 1, length: 900),
        SizeRun(count: 4_999_999, length: 150),
      ]))
    let layout = Layout(items: [], groups: [Group(id: "bbc", virtual: virtual)])
    try layout.validate()
    let bytes: [UInt8] = try Tenfoot_V1_Layout(layout).serializedBytes()
    #expect(Layout(wire: try Tenfoot_V1_Layout(serializedBytes: bytes)) == layout)
    #expect(bytes.count < 160, "\(bytes.count) bytes")
    // Runs whose counts overflow from the wire are clamped, then refused by validation.
    var wire = Tenfoot_V1_Layout(layout)
    wire.groups[0].virtual.sizes[0].count = .max
    #expect(throws: LayoutError.self) { try Layout(wire: wire).validate() }
  }

  @Test("a listed group sends no virtual field, so older peers see the same bytes")
  func listedUnchanged() {
    let wire = Tenfoot_V1_Group(Group(id: "row", items: ["a"]))
    #expect(!wire.hasVirtual)
    #expect(Group(wire: wire).virtual == nil)
  }

  @Test("a count beyond the limit from the wire is clamped and then rejected by validation")
  func hugeCount() {
    var wire = Tenfoot_V1_Layout()
    wire.groups = [
      Tenfoot_V1_Group.with {
        $0.id = "g"
        $0.virtual = .with {
          $0.count = .max
          $0.itemSize = .with {
            $0.width = 10
            $0.height = 10
          }
        }
      }
    ]
    #expect(throws: LayoutError.self) { try Layout(wire: wire).validate() }
    do {
      try Layout(wire: wire).validate()
    } catch {
      #expect(error.path == "groups[0].virtual.count")
    }
  }
}
