import CMalloc
import FocusEngine
import TenFootProtocol

/// A grid of `count` 200×100 posters 20 apart (1,000 columns, fewer for small counts) in a
/// scrolling group: a virtual group, or the same items listed one by one.
func catalog(count: Int, virtual: Bool) -> Layout {
  let declaration = VirtualItems(
    count: count, origin: Point(x: 100, y: 200), itemSize: Size(width: 200, height: 100),
    spacing: Size(width: 20, height: 20), arrangement: .grid(columns: min(count, 1000)),
    titlePrefix: "Title ")
  var group = Group(
    id: "grid", scroll: .both, viewport: Rect(x: 100, y: 200, width: 1720, height: 800))
  guard !virtual else {
    group.virtual = declaration
    return Layout(items: [], groups: [group])
  }
  var items: [Item] = []
  items.reserveCapacity(count)
  for index in 0..<count {
    items.append(
      Item(
        id: "g\(index)", title: declaration.title(at: index), frame: declaration.frame(at: index)))
  }
  group.items = items.map(\.id)
  return Layout(items: items, groups: [group])
}

/// A single row of `count` virtual or listed items, for the coast.
func rail(count: Int, virtual: Bool) -> Layout {
  let declaration = VirtualItems(
    count: count, origin: Point(x: 60, y: 100), itemSize: Size(width: 300, height: 170),
    spacing: Size(width: 40, height: 0))
  var group = Group(
    id: "rail", scroll: .horizontal, viewport: Rect(x: 0, y: 0, width: 1920, height: 400))
  guard !virtual else {
    group.virtual = declaration
    return Layout(items: [], groups: [group])
  }
  let items = (0..<count).map { Item(id: "r\($0)", frame: declaration.frame(at: $0)) }
  group.items = items.map(\.id)
  return Layout(items: items, groups: [group])
}

/// What registering a layout costs the broker: its wire size, the time to decode and index
/// it (wire → `Layout` → `FocusState`), and the heap the session's state then holds.
func registration(_ layout: Layout, repeats: Int) throws -> (bytes: Int, time: Figures, heap: Int) {
  let bytes: [UInt8] = try Tenfoot_V1_Layout(layout).serializedBytes()
  let time = try time(repeats) {
    _ = try FocusState(layout: Layout(wire: try Tenfoot_V1_Layout(serializedBytes: bytes)))
  }
  let before = tenfoot_heap_in_use()
  var state: FocusState? = try FocusState(
    layout: Layout(wire: try Tenfoot_V1_Layout(serializedBytes: bytes)))
  let heap = Int(tenfoot_heap_in_use() - before)
  precondition(state?.focused != nil, "nothing focused after registration")
  state = nil
  return (bytes.count, time, heap)
}

/// Times one fast coast: `steps` moves to the right, from item 0 of a `count`-item rail.
func timeCoast(count: Int, virtual: Bool, steps: Int) throws -> (total: Figures, landed: String?) {
  let layout = rail(count: count, virtual: virtual)
  var landed: String?
  let clock = ContinuousClock()
  var samples: [Duration] = []
  for _ in 0..<5 {
    var state = try FocusState(layout: layout)
    let start = clock.now
    for _ in 0..<steps { reduce(&state, .move(.right)) }
    samples.append(clock.now - start)
    landed = state.focused
  }
  return (figures(samples), landed)
}

/// A heap figure: KiB, or "under 1 KiB" (glibc's counters do not see small blocks served from
/// its per-thread cache, so a few hundred bytes can read as 0).
func kib(_ bytes: Int) -> String {
  bytes < 1024 ? "under 1 KiB" : "\((Double(bytes) / 102.4).rounded() / 10) KiB"
}

/// Times a patch inside a row of `count` items, applied by the engine as the broker applies an
/// app's patch (`reduce` with `applyPatch`): for a virtual row, content for the 30 items around
/// the focus (an app's answer to `itemsInView`, two versions alternating so each one changes
/// something; the layout validated and indexed again); for a listed row, its sixth item made
/// unavailable and available again (applied in place). With `held`, a copy of the state is
/// kept across each patch, as the broker keeps the state before it for the announcer, so the
/// patch pays for copying what it changes (the layout's items, the index's tables).
func timePatches(count: Int, virtual: Bool, held: Bool = false, repeats: Int) throws -> Figures {
  var state = try FocusState(layout: rail(count: count, virtual: virtual))
  let patches: [LayoutPatch] = (0..<2).map { version in
    guard virtual else { return LayoutPatch([.setItemAvailable("r5", version == 1)]) }
    var items: [Int: VirtualContent] = [:]
    for index in 0..<30 {
      items[index] = VirtualContent(
        title: "Title \(index) v\(version)", content: ItemContent(subtitle: "Subtitle \(index)"))
    }
    return LayoutPatch([.setVirtualContent(group: "rail", items: items)])
  }
  var round = 0
  var rejected = 0
  var before: FocusState?
  let figures = time(repeats) {
    round += 1
    if held { before = state }
    for effect in reduce(&state, .applyPatch(patches[round % 2])) {
      if case .layoutRejected = effect { rejected += 1 }
    }
  }
  precondition(before.map { $0 != state } ?? true, "the held state is the patched one")
  precondition(rejected == 0, "the engine refused \(rejected) of the bench's patches")
  return figures
}

/// The virtual-group figures: registration, heap and a move at 10⁴, 10⁶ and 10⁷ virtual
/// items beside listed layouts up to the 100,000-item limit, and a coast across 10,000.
func virtualReport(moves: Int) throws {
  print("\nVirtual groups (a 1,000-column poster grid; listed layouts stop at 100,000 items)")
  let (baseline, _) = try timeMoves(posters(rows: 10, columns: 20), moves: moves)
  row("move, tvOS, 200 listed items (10×20 posters)", baseline)
  let (scrolling, _) = try timeMoves(catalog(count: 200, virtual: false), moves: moves)
  row("move, tvOS, 200 listed in the scrolling grid", scrolling)
  for count in [10_000, 100_000, 1_000_000, 10_000_000] {
    for virtual in [true, false] where virtual || count <= Layout.maximumItemCount {
      let kind = virtual ? "virtual" : "listed"
      let layout = catalog(count: count, virtual: virtual)
      let registered = try registration(layout, repeats: virtual ? 30 : 3)
      let label = "\(count.formatted()) \(kind)"
      row("register, \(label)", registered.time)
      print("  \(label): \(registered.bytes) bytes on the wire, \(kib(registered.heap)) of heap")
      let (moved, _) = try timeMoves(layout, moves: moves)
      row("move, tvOS, \(label)", moved)
      print(
        "  ratio to 200 listed in the same scrolling grid (median): \((moved.median / scrolling.median * 100).rounded() / 100)×"
      )
    }
  }
  print("\nA patch inside a row (the engine applying it, as the broker does)")
  for count in [200, 10_000, 100_000, 1_000_000, 10_000_000] {
    for virtual in [true, false] where virtual || count <= Layout.maximumItemCount {
      let repeats = virtual ? 2_000 : max(20, min(2_000, 2_000_000 / count))
      let patched = try timePatches(count: count, virtual: virtual, repeats: repeats)
      row(
        "patch, \(count.formatted()) \(virtual ? "virtual (content for 30)" : "listed (1 item)")",
        patched)
      guard !virtual else { continue }
      let held = try timePatches(count: count, virtual: false, held: true, repeats: repeats)
      row("patch, \(count.formatted()) listed (1 item), the state before held", held)
    }
  }
  for virtual in [true, false] {
    let coast = try timeCoast(count: 10_001, virtual: virtual, steps: 10_000)
    row("coast 10,000 steps, \(virtual ? "virtual" : "listed") row (whole coast)", coast.total)
    print("  landed on \(coast.landed ?? "nothing")")
  }
  try sizedRowReport(moves: moves)
}

extension Int {
  /// The number with thousands separators: 1,000,000.
  func formatted() -> String {
    let digits = String(self)
    var out = ""
    for (offset, character) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { out.append(",") }
      out.append(character)
    }
    return out
  }
}
