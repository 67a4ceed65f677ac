// tenfoot-engine-bench: how fast the pure focus engine is. Prints figures; never fails on them.
//
//   tenfoot-engine-bench [--moves N]            the full report
//   tenfoot-engine-bench --virtual              only the virtual-group figures
//   tenfoot-engine-bench --listed               only the listed layouts of 200 to 10⁵ items
//   tenfoot-engine-bench --probe MOVES          only MOVES moves on the EPG (for valgrind's
//                                               allocation count: run twice, subtract)
//
// Percentiles are exact: every sample is kept and sorted (no histogram buckets).
import FocusEngine

/// An EPG-like grid: `channels` rows of programme cells of varying widths (30 to 120 minutes
/// at 8 points a minute) across a 24-hour line-up; about `channels × cellsPerRow` items.
func epg(channels: Int, cellsPerRow: Int, search: SearchModel = .tvos) -> Layout {
  var random = SplitMix64(seed: 42)
  var items: [Item] = []
  items.reserveCapacity(channels * cellsPerRow)
  for channel in 0..<channels {
    var x = 0.0
    for programme in 0..<cellsPerRow {
      let width = Double(30 + random.below(4) * 30) * 8
      items.append(
        Item(
          id: "c\(channel)p\(programme)", title: "Programme \(programme)",
          frame: Rect(x: x, y: Double(channel) * 80, width: width - 4, height: 76)))
      x += width
    }
  }
  return Layout(canvas: Size(width: 1920, height: 1080), items: items, search: search)
}

/// A plain rows × columns grid of posters.
func posters(rows: Int, columns: Int) -> Layout {
  var items: [Item] = []
  for row in 0..<rows {
    for column in 0..<columns {
      items.append(
        Item(
          id: "r\(row)c\(column)",
          frame: Rect(x: Double(column) * 340, y: Double(row) * 240, width: 300, height: 200)))
    }
  }
  return Layout(items: items)
}

/// A random walk of `count` moves that prefers right and down and turns back at the edges,
/// so the walk covers the whole layout.
func walk(_ count: Int, seed: UInt64) -> [Direction] {
  var random = SplitMix64(seed: seed)
  return (0..<count).map { _ in Direction.allCases[random.below(4)] }
}

struct Figures {
  var median: Double
  var p99: Double
  var p999: Double
  var mean: Double
}

/// Exact percentiles of the samples, in nanoseconds.
func figures(_ samples: [Duration]) -> Figures {
  let nanos = samples.map {
    Double($0.components.attoseconds) / 1e9 + Double($0.components.seconds) * 1e9
  }
  .sorted()
  func at(_ fraction: Double) -> Double {
    nanos[min(nanos.count - 1, Int(Double(nanos.count) * fraction))]
  }
  return Figures(
    median: at(0.5), p99: at(0.99), p999: at(0.999),
    mean: nanos.reduce(0, +) / Double(nanos.count))
}

/// Times `moves` directional moves one by one on `layout`.
func timeMoves(_ layout: Layout, moves: Int) throws -> (Figures, moved: Int) {
  var state = try FocusState(layout: layout)
  let directions = walk(moves, seed: 7)
  let clock = ContinuousClock()
  for direction in directions.prefix(1000) { reduce(&state, .move(direction)) }  // warm-up
  var samples: [Duration] = []
  samples.reserveCapacity(moves)
  var moved = 0
  for direction in directions {
    let start = clock.now
    let effects = reduce(&state, .move(direction))
    samples.append(clock.now - start)
    if case .focusChanged = effects.first { moved += 1 }
  }
  return (figures(samples), moved)
}

/// Times `moves` moves each followed by its announcement (what the broker does per step), on
/// `layout` with each channel a labelled group (positions count the channel's items).
func timeAnnouncedMoves(_ layout: Layout, channels: Int, moves: Int, announce: Bool = true)
  throws -> Figures
{
  var grouped = layout
  let perChannel = layout.items.count / channels
  grouped.groups = (0..<channels).map { channel in
    Group(
      id: "channel-\(channel)",
      items: layout.items[channel * perChannel..<(channel + 1) * perChannel].map(\.id),
      accessibilityLabel: "Channel \(channel)")
  }
  var state = try FocusState(layout: grouped)
  var announcer = Announcer()
  let clock = ContinuousClock()
  var samples: [Duration] = []
  samples.reserveCapacity(moves)
  for (step, direction) in walk(moves, seed: 7).enumerated() {
    let start = clock.now
    let before = state
    let effects = reduce(&state, .move(direction))
    if announce {
      _ = announcer.announce(effects, before: before, after: state, at: UInt64(step) * 50_000_000)
    }
    samples.append(clock.now - start)
  }
  return figures(samples)
}

/// Times `count` pointer moves (the whole reducer step: hit test, retarget, focus change) to
/// seeded random points on the canvas, and the hit test alone at the same points.
func timePointer(_ layout: Layout, count: Int) throws -> (moves: Figures, hitTests: Figures) {
  var state = try FocusState(layout: layout)
  var random = SplitMix64(seed: 11)
  let points = (0..<count).map { _ in
    Point(
      x: Double(random.below(Int(layout.canvas.width))),
      y: Double(random.below(Int(layout.canvas.height))))
  }
  let clock = ContinuousClock()
  for (step, point) in points.prefix(1000).enumerated() {  // warm-up
    reduce(&state, .pointer(PointerSample(.moved, position: point, at: UInt64(step))))
  }
  var moves: [Duration] = []
  moves.reserveCapacity(count)
  for (step, point) in points.enumerated() {
    let sample = PointerSample(.moved, position: point, at: UInt64(1000 + step))
    let start = clock.now
    reduce(&state, .pointer(sample))
    moves.append(clock.now - start)
  }
  var hits: [Duration] = []
  hits.reserveCapacity(count)
  var found = 0
  for point in points {
    let start = clock.now
    let hit = state.hitTest(point)
    hits.append(clock.now - start)
    if hit != nil { found += 1 }
  }
  precondition(found > 0, "the pointer bench hit nothing")
  return (figures(moves), figures(hits))
}

func time(_ repeats: Int, _ body: () throws -> Void) rethrows -> Figures {
  let clock = ContinuousClock()
  var samples: [Duration] = []
  for _ in 0..<repeats {
    let start = clock.now
    try body()
    samples.append(clock.now - start)
  }
  return figures(samples)
}

func format(_ nanoseconds: Double) -> String {
  if nanoseconds >= 1_000_000 { return "\((nanoseconds / 10_000).rounded() / 100) ms" }
  if nanoseconds >= 1_000 { return "\((nanoseconds / 10).rounded() / 100) µs" }
  return "\(nanoseconds.rounded()) ns"
}

func row(_ name: String, _ figures: Figures) {
  let padded = name + String(repeating: " ", count: max(1, 46 - name.count))
  print(
    "\(padded) median \(format(figures.median))  p99 \(format(figures.p99))  p99.9 \(format(figures.p999))"
  )
}

let arguments = CommandLine.arguments
if let flag = arguments.firstIndex(of: "--probe"), flag + 1 < arguments.count,
  let count = Int(arguments[flag + 1])
{
  // Allocation probe: build the state, then make `count` moves; valgrind counts the mallocs.
  var state = try FocusState(layout: epg(channels: 100, cellsPerRow: 100))
  var moved = 0
  for direction in walk(count, seed: 7) where !reduce(&state, .move(direction)).isEmpty {
    moved += 1
  }
  print("probe: \(moved) moves")
} else if arguments.contains("--virtual") {
  try virtualReport(moves: 100_000)
} else if arguments.contains("--listed") {
  try listedSizeReport(moves: 100_000)
} else {
  var moves = 100_000
  if let flag = arguments.firstIndex(of: "--moves"), flag + 1 < arguments.count,
    let value = Int(arguments[flag + 1])
  {
    moves = value
  }
  print("TenFoot focus engine benchmark (\(moves) moves per layout after 1,000 warm-up moves)")
  let small = posters(rows: 10, columns: 10)
  let large = epg(channels: 100, cellsPerRow: 100)
  let (smallMoves, smallMoved) = try timeMoves(small, moves: moves)
  let (largeMoves, largeMoved) = try timeMoves(large, moves: moves)
  row("move, tvOS, 100 items (10×10 posters)", smallMoves)
  row("move, tvOS, 10,000 items (EPG 100×100)", largeMoves)
  let (androidLarge, _) = try timeMoves(
    epg(channels: 100, cellsPerRow: 100, search: .android), moves: moves / 10)
  row("move, Android model, 10,000 items (EPG)", androidLarge)
  row(
    "move, tvOS, EPG in channel groups",
    try timeAnnouncedMoves(large, channels: 100, moves: 0 + moves / 10, announce: false))
  row(
    "move + announce, EPG in channel groups",
    try timeAnnouncedMoves(large, channels: 100, moves: moves / 10))
  print(
    "moves that moved focus (the rest bumped at an edge): \(smallMoved) of \(moves) (100 items), \(largeMoved) of \(moves) (10,000)"
  )
  print(
    "ratio 10,000 / 100 items (tvOS median): \((largeMoves.median / smallMoves.median * 100).rounded() / 100)×  (linear would be 100×)"
  )
  let pointerSmall = try timePointer(small, count: moves)
  let pointerLarge = try timePointer(large, count: moves)
  row("pointer move (reduce), 100 items", pointerSmall.moves)
  row("pointer move (reduce), 10,000 items (EPG)", pointerLarge.moves)
  row("pointer hit test, 100 items", pointerSmall.hitTests)
  row("pointer hit test, 10,000 items (EPG)", pointerLarge.hitTests)
  print(
    "ratio 10,000 / 100 items (pointer move median): \((pointerLarge.moves.median / pointerSmall.moves.median * 100).rounded() / 100)×  (linear would be 100×)"
  )
  let load = try time(30) { _ = try FocusState(layout: large) }
  row("load a 10,000-item layout (FocusState.init)", load)
  var state = try FocusState(layout: large)
  var shifted = large
  for position in shifted.items.indices { shifted.items[position].frame.x += 1 }
  var flip = false
  let replace = time(30) {
    flip.toggle()
    reduce(&state, .replaceLayout(flip ? shifted : large))
  }
  row("replace a 10,000-item layout (reduce)", replace)
  try listedSizeReport(moves: moves)
  try virtualReport(moves: moves)
}
