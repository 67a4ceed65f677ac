import FocusEngine

/// An EPG of 8 virtual channel rows of `count` programmes each, in one guide that scrolls
/// them together, focus starting in the middle of the first: every row uniform (300 wide), or
/// sized by `runs` runs whose lengths cycle through 150, 300, 450 and 600 (each row's cycle
/// one step on from the row above, so programme boundaries do not line up).
func sizedGuide(count: Int, runs: Int?) -> Layout {
  let lengths: [Double] = [150, 300, 450, 600]
  let rows = (0..<8).map { channel in
    var sizes: SizeRuns?
    if let runs {
      let per = count / runs
      sizes = SizeRuns(
        (0..<runs).map { run in
          SizeRun(
            count: run == runs - 1 ? count - per * (runs - 1) : per,
            length: lengths[(run + channel) % lengths.count])
        })
    }
    return Group(
      id: "ch\(channel)",
      virtual: VirtualItems(
        count: count, origin: Point(x: 300, y: 100 + Double(channel) * 110),
        itemSize: Size(width: 300, height: 100), titlePrefix: "Programme ", sizes: sizes))
  }
  let guide = Group(
    id: "guide", groups: rows, scroll: .horizontal,
    viewport: Rect(x: 300, y: 80, width: 1620, height: 900))
  return Layout(items: [], groups: [guide], initialFocus: "ch0#\(count / 2)")
}

/// The per-index-size figures: a move in an 8-row guide of 10⁴, 10⁶ and 10⁷ programmes per
/// row, uniform beside sized by 100 runs (the same table at every count: a move's cost must
/// not grow with the count) and by a run per 100 programmes (at most 100,000: the table, and
/// its binary searches, grow with the runs), with the wire bytes and heap of the
/// registration.
func sizedRowReport(moves: Int) throws {
  print("\nPer-index sizes (an 8-row virtual EPG in one scrolling guide; runs of 4 lengths)")
  for count in [10_000, 1_000_000, 10_000_000] {
    // 10⁴ programmes a row in runs of 100 already is 100 runs.
    let variants: [Int?] =
      count / 100 == 100 ? [nil, 100] : [nil, 100, min(count / 100, VirtualItems.maximumSizeRuns)]
    for runs in variants {
      let layout = sizedGuide(count: count, runs: runs)
      let label =
        "\(count.formatted()) a row, " + (runs.map { "\($0.formatted()) runs" } ?? "uniform")
      let registered = try registration(layout, repeats: 10)
      print("  \(label): \(registered.bytes) bytes on the wire, \(kib(registered.heap)) of heap")
      row("register, \(label)", registered.time)
      let (moved, changed) = try timeMoves(layout, moves: moves)
      row("move, tvOS, \(label)", moved)
      print("  \(changed) of \(moves) moves changed focus")
    }
  }
}
