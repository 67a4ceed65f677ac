/// `count` consecutive items of a virtual row or column, each `length` points along its axis.
public struct SizeRun: Sendable, Hashable {
  /// How many items the run holds (1 or more).
  public var count: Int
  /// Each item's length along the arrangement's axis (finite, above 0).
  public var length: Double

  /// A run of `count` items of `length` points.
  public init(count: Int, length: Double) {
    self.count = count
    self.length = length
  }
}

/// Per-index lengths of a virtual row or column as runs, with their prefix sums: item `i`'s
/// offset from item 0 is `offset(i) + i · gap` and its length is its run's. Memory is
/// O(runs) whatever the count; finding an index's run, or the item at a position, is a binary
/// search, O(log runs).
///
/// The prefix sums leave the gap out (it is added per index), so one table serves whatever
/// spacing the declaration has.
public struct SizeRuns: Sendable, Hashable {
  /// The runs, in index order.
  public let runs: [SizeRun]
  /// `firstIndex[r]`: the index of run `r`'s first item; one more entry holds the total.
  let firstIndex: [Int]
  /// `lengthBefore[r]`: the sum of the lengths of the items before run `r` (no gaps); one
  /// more entry holds the total.
  let lengthBefore: [Double]

  /// The table of `runs`. Counts are summed with saturation (validation refuses a total
  /// other than the group's count). O(runs).
  public init(_ runs: [SizeRun]) {
    self.runs = runs
    var firstIndex: [Int] = []
    var lengthBefore: [Double] = []
    firstIndex.reserveCapacity(runs.count + 1)
    lengthBefore.reserveCapacity(runs.count + 1)
    var index = 0
    var length = 0.0
    for run in runs {
      firstIndex.append(index)
      lengthBefore.append(length)
      let (sum, overflow) = index.addingReportingOverflow(max(run.count, 0))
      index = overflow ? Int.max : sum
      length += Double(max(run.count, 0)) * run.length
    }
    firstIndex.append(index)
    lengthBefore.append(length)
    self.firstIndex = firstIndex
    self.lengthBefore = lengthBefore
  }

  /// How many items the runs cover.
  public var total: Int { firstIndex[firstIndex.count - 1] }

  /// The run holding item `index` (clamped to the runs). O(log runs).
  func run(of index: Int) -> Int {
    var low = 0
    var high = runs.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if firstIndex[middle] <= index { low = middle } else { high = middle - 1 }
    }
    return max(low, 0)
  }

  /// Item `index`'s length. O(log runs).
  public func length(of index: Int) -> Double {
    runs.isEmpty ? 0 : runs[run(of: index)].length
  }

  /// Item `index`'s start, from item 0's, with `gap` between neighbours. O(log runs).
  public func offset(of index: Int, gap: Double) -> Double {
    span(of: index, gap: gap).start
  }

  /// Item `index`'s start (as ``offset(of:gap:)``) and length, from one search. O(log runs).
  func span(of index: Int, gap: Double) -> (start: Double, length: Double) {
    guard !runs.isEmpty else { return (Double(index) * gap, 0) }
    let r = run(of: index)
    let into = Double(index - firstIndex[r])
    return (lengthBefore[r] + into * runs[r].length + Double(index) * gap, runs[r].length)
  }

  /// The index of the last item whose start (``offset(of:gap:)``) is at or before `value`,
  /// as a fraction past it (how far into the item and its gap `value` lies), clamped to
  /// `0 ... total`: what the searches take as their estimate. O(log runs).
  func slot(at value: Double, gap: Double) -> Double {
    guard !runs.isEmpty, value > 0 else { return 0 }
    var low = 0
    var high = runs.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lengthBefore[middle] + Double(firstIndex[middle]) * gap <= value {
        low = middle
      } else {
        high = middle - 1
      }
    }
    let pitch = runs[low].length + gap
    let start = lengthBefore[low] + Double(firstIndex[low]) * gap
    let within = min((value - start) / pitch, Double(firstIndex[low + 1] - firstIndex[low]))
    return Double(firstIndex[low]) + (within.isFinite ? within : 0)
  }
}
