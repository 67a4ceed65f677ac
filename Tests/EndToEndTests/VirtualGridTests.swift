import Foundation
import TestSupport
import Testing

/// Catalogs of any size: a screen whose layout file declares a 1,000,000-item virtual grid,
/// driven through broker, headless screen and remote as separate processes.
@Suite("Virtual grid across processes", .serialized)
struct VirtualGridTests {
  /// A 1,000-column grid of 1,000,000 posters (ids `grid#0` … `grid#999999`), focus starting
  /// in the middle, at row 500, column 500.
  static let layout = #"""
    {"canvas": {"width": 1920, "height": 1080}, "initialFocus": "grid#500500", "items": [],
     "groups": [{"id": "grid", "scroll": "both", "viewport": [0, 0, 1920, 1080],
       "virtual": {"count": 1000000, "arrangement": "grid", "columns": 1000,
         "origin": {"x": 60, "y": 60}, "itemSize": {"width": 300, "height": 170},
         "spacing": {"width": 40, "height": 40}, "titlePrefix": "Title "}}]}
    """#

  /// The index of a virtual id (`grid#500503` → 500503), or -1.
  static func index(_ id: String?) -> Int {
    guard let id, id.hasPrefix("grid#") else { return -1 }
    return Int(id.dropFirst(5)) ?? -1
  }

  @Test("a fast swipe coasts along the row and the headless frame shows that index focused")
  func coast() throws {
    let stack = try Stack(.ipc)
    let file = try stack.directory.write("grid.json", Self.layout)
    let screen = try stack.screen(["--layout", file])
    let first = try screen.waitForFrame("first frame") { $0.focused == "grid#500500" }
    #expect(first.frame.states["grid#500500"] == "focused", "\(first.frame.states)")

    let fast = try stack.remote(["swipe", "right", "--speed", "fast"])
    #expect(fast.status == 0, "\(fast.errors)")
    let landed = try #require(fast.output.first?.split(separator: " ").last.map(String.init))
    // Several steps along row 500, never past it.
    #expect((500_503..<501_000).contains(Self.index(landed)), "\(fast.output)")
    let shown = try screen.waitForFrame(from: first.index, "a frame with \(landed) focused") {
      $0.focused == landed
    }
    #expect(shown.frame.states[landed] == "focused", "\(shown.frame.states)")
    #expect(shown.frame.states["grid#500500"] != "focused")
    // The frame draws the visible window only, with the focused item's placeholder title.
    let drawn = shown.frame.virtual
    #expect(drawn[landed] == "Title \(Self.index(landed) + 1)", "\(drawn.keys.sorted())")
    #expect((1...100).contains(drawn.count), "\(drawn.count) virtual items drawn")

    let down = try stack.remote(["swipe", "down", "--speed", "fast"])
    #expect(down.status == 0, "\(down.errors)")
    let below = try #require(down.output.first?.split(separator: " ").last.map(String.init))
    // Whole rows down, same column.
    let rows = (Self.index(below) - Self.index(landed)) / 1000
    #expect(rows >= 3 && Self.index(below) == Self.index(landed) + rows * 1000, "\(down.output)")
    _ = try screen.waitForFrame(from: shown.index, "a frame with \(below) focused") {
      $0.focused == below
    }
  }

  @Test("the remote focuses an index by its id; an index past the count is refused")
  func focusByIndex() throws {
    let stack = try Stack(.ipc)
    let file = try stack.directory.write("grid.json", Self.layout)
    let screen = try stack.screen(["--layout", file])
    let first = try screen.waitForFrame("first frame") { $0.focused == "grid#500500" }
    let last = try stack.remote(["focus", "grid#999999"])
    #expect(last.status == 0, "\(last.errors)")
    let shown = try screen.waitForFrame(from: first.index, "the last index focused") {
      $0.focused == "grid#999999"
    }
    #expect(shown.frame.virtual["grid#999999"] == "Title 1000000", "\(shown.frame.virtual)")
    let past = try stack.remote(["focus", "grid#1000000"])
    #expect(past.status != 0, "\(past.output)")
    #expect(past.errors.joined().contains("grid#1000000"), "\(past.errors)")
  }
}
