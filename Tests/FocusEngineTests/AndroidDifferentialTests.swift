import Testing

@testable import FocusEngine

/// The engine's Android model against a port of AOSP's `FocusFinder` (``AOSPFocusFinder``) on
/// seeded random layouts: every focusable item of a layout as the source (at most
/// ``sourcesPerLayout``), every direction, 100 % agreement required. A disagreement names
/// the seed, the layout kind, the source, the direction and both answers; rerun one seed with
/// `DifferentialCase.run(seed:)`.
@Suite("Android model vs a port of AOSP FocusFinder (differential, seeded)")
struct AndroidDifferentialTests {
  /// Layouts per kind of a few dozen items (the kinds of hundreds try fewer: ``LayoutKind/layouts``).
  static let layoutsPerKind = 1_000
  /// The most sources tried per layout.
  static let sourcesPerLayout = 8

  @Test("the engine agrees with AOSP on every seeded layout", arguments: LayoutKind.allCases)
  func agreesWithAOSP(kind: LayoutKind) throws {
    var comparisons = 0
    var moves = 0
    var failures: [String] = []
    for offset in 0..<UInt64(kind.layouts) {
      let seed = kind.seedBase + offset
      let result = try DifferentialCase.run(seed: seed, kind: kind)
      comparisons += result.comparisons
      moves += result.moves
      failures += result.failures
      if failures.count >= 5 { break }
    }
    for failure in failures { Issue.record(Comment(rawValue: failure)) }
    if failures.isEmpty {
      // The generators must produce real work: most comparisons find a destination.
      #expect(comparisons >= kind.layouts * 4, "\(kind): only \(comparisons) comparisons")
      #expect(moves * 4 >= comparisons, "\(kind): only \(moves) of \(comparisons) moved")
    }
    print(
      "AndroidDifferential \(kind.rawValue): \(kind.layouts) layouts, \(comparisons) "
        + "searches (\(moves) found a destination), \(failures.isEmpty ? "all agree" : "FAILED")")
  }

  @Test("equal candidates: the first declared wins, as in Android, not the first in reading order")
  func declarationOrderMatters() throws {
    // Moving right from src: two candidates outside the beam, mirrored above and below it,
    // so their weighted distances are equal; Android keeps the first in its focusables list.
    let src = item("src", 0, 100, 100, 100)
    let above = item("above", 300, -50, 100, 100)
    let below = item("below", 300, 250, 100, 100)
    for (order, expected) in [([above, below], "above"), ([below, above], "below")] {
      let state = try FocusState(
        layout: Layout(items: [src] + order, initialFocus: "src", search: .android))
      #expect(state.destination(from: "src", .right) == expected)
    }
  }

  @Test("beyond 12,852 points Java's int overflows; TenFoot keeps the true order (documented)")
  func overflowDifference() throws {
    // Both candidates outside the beam, so the weighted distance decides: "far" is 20,000
    // points away, "near" 10,000. In Java 13·20000² wraps below 13·10000².
    let src = JavaRect(left: 0, top: 0, right: 100, bottom: 100)
    let near = JavaRect(left: 10_100, top: 200, right: 10_200, bottom: 300)
    let far = JavaRect(left: 20_100, top: 200, right: 20_200, bottom: 300)
    var finder = AOSPFocusFinder()
    let aosp = finder.findNextFocusInAbsoluteDirection(
      [src, far, near], 0, src, AOSPFocusFinder.FOCUS_RIGHT)
    #expect(aosp == 1, "AOSP picks the far one through overflow")
    let state = try FocusState(
      layout: Layout(
        items: [
          item("src", 0, 0, 100, 100), item("far", 20_100, 200, 100, 100),
          item("near", 10_100, 200, 100, 100),
        ], initialFocus: "src", search: .android))
    #expect(state.destination(from: "src", .right) == "near")
  }

  @Test("frames are rounded to whole points and centres truncate")
  func integerArithmetic() {
    let rect = AndroidRect(Rect(x: 10.4, y: -2.5, width: 5.2, height: 3))
    #expect(rect == AndroidRect(left: 10, top: -3, right: 16, bottom: 1))
    #expect(rect.centerX == 13)  // 10 + 6 / 2
    #expect(AndroidRect(left: 0, top: 0, right: 5, bottom: 5).centerY == 2)  // 5 / 2 truncates
    #expect(AndroidRect(left: -5, top: -5, right: 0, bottom: 0).centerX == -3)  // -5 + 5 / 2
    let huge = AndroidRect(Rect(x: -1e300, y: 0, width: 2e300, height: 1))
    #expect(huge.left == -AndroidRect.edgeLimit && huge.right == AndroidRect.edgeLimit)
  }

  @Test("scrolled: the rounded content frame moved by the rounded scroll offset")
  func scrolledFrames() throws {
    let layout = Layout(
      items: [item("a", 0, 0, 100, 100), item("b", 400, 0, 100, 100), item("c", 700, 0, 100, 100)],
      groups: [
        Group(
          id: "row", items: ["a", "b", "c"], scroll: .horizontal,
          viewport: Rect(x: 0, y: 0, width: 300, height: 100), scrollMargin: 10.5)
      ], initialFocus: "a", search: .android)
    var state = try FocusState(layout: layout)
    _ = reduce(&state, .move(.right))
    #expect(state.scrollOffsets["row"] == Point(x: 210.5, y: 0))
    #expect(state.presentedFrame(of: "b")?.x == 189.5)
    // 400 − round(210.5) = 400 − 211: Android scrolls by whole pixels.
    let b = try #require(state.layout.items.firstIndex { $0.id == "b" })
    #expect(state.androidFrame(at: b) == AndroidRect(left: 189, top: 0, right: 289, bottom: 100))
    _ = reduce(&state, .move(.left))
    #expect(state.focused == "a")
  }
}

/// The shapes of random layout the differential test draws.
enum LayoutKind: String, CaseIterable, Sendable {
  /// A regular grid with odd sizes and gaps, some items unavailable, shuffled declaration.
  case grid
  /// A grid whose cells are moved and resized at random: near-ties and out-of-beam choices.
  case jittered
  /// Pairs mirrored about the source's centre line (equal weighted distances) and exact
  /// duplicates: ties only declaration order can break.
  case mirrored
  /// Rectangles piled on each other and on the source: partial overlaps, containment,
  /// zero-sized items.
  case overlapping
  /// A grid of up to 25 × 25 small jittered cells, so a search's ball holds a small part of
  /// the layout and the proof that the rest changes nothing is what decides.
  case largeGrid
  /// Hundreds of rectangles scattered over 10,000 points, some long and thin (wide rows,
  /// tall columns), some in clusters: out-of-beam items beside in-beam ones at every range.
  case scattered

  /// How many layouts of this kind the test compares.
  var layouts: Int {
    self == .largeGrid || self == .scattered ? 250 : AndroidDifferentialTests.layoutsPerKind
  }

  /// The first seed of this kind (kinds never share seeds).
  var seedBase: UInt64 {
    switch self {
    case .grid: 1_000_000
    case .jittered: 2_000_000
    case .mirrored: 3_000_000
    case .overlapping: 4_000_000
    case .largeGrid: 5_000_000
    case .scattered: 6_000_000
    }
  }

  static func of(seed: UInt64) -> LayoutKind {
    allCases.last { $0.seedBase <= seed } ?? .grid
  }
}

/// One seeded layout compared in every direction from several sources.
enum DifferentialCase {
  struct Result {
    var comparisons = 0
    var moves = 0
    var failures: [String] = []
  }

  /// Generates the layout for `seed` and compares the engine with the port.
  static func run(seed: UInt64, kind: LayoutKind? = nil) throws -> Result {
    let kind = kind ?? LayoutKind.of(seed: seed)
    var rng = SplitMix64(seed: seed)
    let rects = generate(kind, &rng)
    let available = rects.map { _ in !rng.chance(0.15) }
    let items = rects.enumerated().map { position, rect in
      Item(
        id: "i\(position)",
        frame: Rect(
          x: Double(rect.left), y: Double(rect.top), width: Double(rect.right - rect.left),
          height: Double(rect.bottom - rect.top)),
        available: available[position])
    }
    let state = try FocusState(layout: Layout(items: items, search: .android))
    // AOSP's focusables list: the focusable views, in tree (here declaration) order.
    let focusables = rects.indices.filter { available[$0] }
    var result = Result()
    for source in focusables.shuffled(using: &rng).prefix(AndroidDifferentialTests.sourcesPerLayout)
    {
      for direction in Direction.allCases {
        var finder = AOSPFocusFinder()
        let list = focusables.map { rects[$0] }
        let expected = finder.findNextFocusInAbsoluteDirection(
          list, focusables.firstIndex(of: source), rects[source], javaDirection(direction)
        ).map { "i\(focusables[$0])" }
        let actual = state.destination(from: "i\(source)", direction)
        result.comparisons += 1
        if expected != nil { result.moves += 1 }
        if actual != expected {
          result.failures.append(
            "seed \(seed) (\(kind.rawValue)): from i\(source) \(direction): engine "
              + "\(actual ?? "nothing"), AOSP \(expected ?? "nothing"); rects (left, top, right, "
              + "bottom; * unavailable) "
              + rects.indices.map { index in
                let r = rects[index]
                return "i\(index)\(available[index] ? "" : "*") [\(r.left), \(r.top), \(r.right), "
                  + "\(r.bottom)]"
              }.joined(separator: " "))
        }
      }
    }
    return result
  }

  static func javaDirection(_ direction: Direction) -> Int32 {
    switch direction {
    case .left: AOSPFocusFinder.FOCUS_LEFT
    case .right: AOSPFocusFinder.FOCUS_RIGHT
    case .up: AOSPFocusFinder.FOCUS_UP
    case .down: AOSPFocusFinder.FOCUS_DOWN
    }
  }

  static func generate(_ kind: LayoutKind, _ rng: inout SplitMix64) -> [JavaRect] {
    var rects: [JavaRect]
    switch kind {
    case .grid: rects = grid(&rng, jitter: 0)
    case .jittered: rects = grid(&rng, jitter: rng.int(5...60))
    case .mirrored: rects = mirrored(&rng)
    case .overlapping: rects = overlapping(&rng)
    case .largeGrid: rects = largeGrid(&rng)
    case .scattered: rects = scattered(&rng)
    }
    if rng.chance(0.5) { rects.shuffle(using: &rng) }  // Else row-major, as often in apps.
    return rects
  }

  static func rect(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> JavaRect {
    JavaRect(
      left: Int32(x), top: Int32(y), right: Int32(x + max(0, width)),
      bottom: Int32(y + max(0, height)))
  }

  static func grid(_ rng: inout SplitMix64, jitter: Int) -> [JavaRect] {
    let (rows, columns) = (rng.int(1...6), rng.int(2...7))
    let (width, height, gap) = (rng.int(1...301), rng.int(1...201), rng.int(0...41))
    return cells(
      &rng, rows: rows, columns: columns, size: (width, height), gap: gap, jitter: jitter,
      origin: (-500, -300))
  }

  static func largeGrid(_ rng: inout SplitMix64) -> [JavaRect] {
    let (rows, columns) = (rng.int(8...25), rng.int(8...25))
    let (width, height, gap) = (rng.int(1...150), rng.int(1...150), rng.int(0...40))
    let jitter = rng.chance(0.5) ? 0 : rng.int(1...30)
    return cells(
      &rng, rows: rows, columns: columns, size: (width, height), gap: gap, jitter: jitter,
      origin: (-2_000, -2_000))
  }

  /// A grid's cells from `origin`, row by row, each edge moved by up to `jitter`.
  static func cells(
    _ rng: inout SplitMix64, rows: Int, columns: Int, size: (width: Int, height: Int), gap: Int,
    jitter: Int, origin: (x: Int, y: Int)
  ) -> [JavaRect] {
    var rects: [JavaRect] = []
    for row in 0..<rows {
      for column in 0..<columns {
        func wobble() -> Int { jitter == 0 ? 0 : rng.int(-jitter...jitter) }
        rects.append(
          rect(
            column * (size.width + gap) + wobble() + origin.x,
            row * (size.height + gap) + wobble() + origin.y,
            size.width + wobble(), size.height + wobble()))
      }
    }
    return rects
  }

  static func scattered(_ rng: inout SplitMix64) -> [JavaRect] {
    var rects: [JavaRect] = []
    for _ in 0..<rng.int(100...300) {
      let x = rng.int(-5_000...5_000)
      let y = rng.int(-5_000...5_000)
      switch rng.int(0...9) {
      case 0: rects.append(rect(x, y, rng.int(500...3_000), rng.int(0...40)))  // A wide row.
      case 1: rects.append(rect(x, y, rng.int(0...40), rng.int(500...3_000)))  // A tall column.
      case 2...4:
        // A cluster of small items around the last one.
        let anchor = rects.last ?? rect(x, y, 10, 10)
        for _ in 0..<rng.int(2...6) {
          rects.append(
            rect(
              Int(anchor.left) + rng.int(-200...200), Int(anchor.top) + rng.int(-200...200),
              rng.int(0...120), rng.int(0...120)))
        }
      default: rects.append(rect(x, y, rng.int(0...400), rng.int(0...400)))
      }
    }
    return rects
  }

  static func mirrored(_ rng: inout SplitMix64) -> [JavaRect] {
    // The source at the origin; candidates in pairs reflected across its centre line, on
    // either axis, so each pair has equal major and minor distances in some directions.
    let width = rng.int(1...151)
    let height = rng.int(1...151)
    var rects = [rect(0, 0, width, height)]
    for _ in 0..<rng.int(2...8) {
      let w = rng.int(0...161)
      let h = rng.int(0...161)
      let x = rng.int(-600...600)
      let y = rng.int(-600...600)
      rects.append(rect(x, y, w, h))
      if rng.chance(0.5) {
        rects.append(rect(x, height - (y + h), w, h))  // Mirrored top to bottom.
      } else {
        rects.append(rect(width - (x + w), y, w, h))  // Mirrored left to right.
      }
      if rng.chance(0.2) { rects.append(rects[rects.count - 1]) }  // An exact duplicate.
    }
    return rects
  }

  static func overlapping(_ rng: inout SplitMix64) -> [JavaRect] {
    var rects: [JavaRect] = []
    for _ in 0..<rng.int(3...24) {
      let size = rng.int(0...400)
      rects.append(
        rect(
          rng.int(-300...300), rng.int(-300...300), rng.chance(0.1) ? 0 : rng.int(0...size),
          rng.chance(0.1) ? 0 : rng.int(0...size)))
    }
    return rects
  }
}
