import Testing

@testable import FocusEngine

/// The Android model against the AOSP port (``AOSPFocusFinder``) on scrolled layouts: rails of
/// items at fractional positions, each a horizontally scrolling group inside a vertically
/// scrolling page (one scroll domain per rail), scrolled by a random walk. AOSP gets every
/// focusable item's frame as the engine presents it in whole points (``FocusState/androidFrame(at:)``),
/// in declaration order; every direction from the focused item must agree, bumps at the edges
/// of the rails and of the page included.
@Suite("Android model vs AOSP on scrolled rails (differential, seeded)")
struct AndroidScrolledDifferentialTests {
  /// A page of `rows` rails of up to 20 items, some unavailable, at fractional positions.
  static func rails(_ rng: inout SplitMix64) -> Layout {
    var items: [Item] = []
    var rails: [Group] = []
    let rows = rng.int(2...6)
    let width = Double(rng.int(40...300)) + 0.5 * Double(rng.int(0...1))
    let gap = Double(rng.int(0...60)) + 0.25 * Double(rng.int(0...3))
    for row in 0..<rows {
      var ids: [String] = []
      let y = 50.5 + Double(row) * 180
      for column in 0..<rng.int(1...20) {
        let id = "r\(row)c\(column)"
        let jitter = rng.chance(0.2) ? Double(rng.int(-20...20)) / 2 : 0
        items.append(
          Item(
            id: id,
            frame: Rect(
              x: 30 + Double(column) * (width + gap) + jitter, y: y + jitter,
              width: width, height: 150), available: !rng.chance(0.1)))
        ids.append(id)
      }
      rails.append(
        Group(
          id: "rail\(row)", items: ids, scroll: .horizontal,
          viewport: Rect(x: 0, y: y - 10, width: 1000.5, height: 170),
          scrollMargin: Double(rng.int(0...80)) / 2))
    }
    let page = Group(
      id: "page", groups: rails, scroll: .vertical,
      viewport: Rect(x: 0, y: 40, width: 1920, height: 400), scrollMargin: 30.5)
    return Layout(items: items, groups: [page], search: .android)
  }

  @Test("every direction from the focused item agrees with AOSP as the walk scrolls")
  func agreesWhileScrolled() throws {
    var comparisons = 0
    var bumps = 0
    var failures: [String] = []
    for seed in 0..<UInt64(300) where failures.count < 5 {
      var rng = SplitMix64(seed: 9_000 + seed)
      var state = try FocusState(layout: Self.rails(&rng))
      for _ in 0..<30 {
        guard let focused = state.focused,
          let source = state.layout.items.firstIndex(where: {
            $0.id == focused
          })
        else { break }
        let focusables = state.layout.items.indices.filter {
          state.isFocusable(state.layout.items[$0].id)
        }
        let frames = focusables.map { position in
          let frame = state.androidFrame(at: position)
          return JavaRect(
            left: Int32(frame.left), top: Int32(frame.top), right: Int32(frame.right),
            bottom: Int32(frame.bottom))
        }
        guard let at = focusables.firstIndex(of: source) else { break }
        for direction in Direction.allCases {
          var finder = AOSPFocusFinder()
          let expected = finder.findNextFocusInAbsoluteDirection(
            frames, at, frames[at], DifferentialCase.javaDirection(direction)
          ).map { state.layout.items[focusables[$0]].id }
          let actual = state.destination(from: focused, direction)
          comparisons += 1
          if expected == nil { bumps += 1 }
          if actual != expected {
            failures.append(
              "seed \(9_000 + seed): from \(focused) \(direction): engine \(actual ?? "nothing"), "
                + "AOSP \(expected ?? "nothing"), offsets \(state.scrollOffsets)")
          }
        }
        _ = reduce(&state, .move(rng.pick(Direction.allCases)))
      }
    }
    for failure in failures { Issue.record(Comment(rawValue: failure)) }
    #expect(comparisons > 20_000)
    #expect(bumps > 1_000, "the edges came up: \(bumps) bumps")
  }
}
