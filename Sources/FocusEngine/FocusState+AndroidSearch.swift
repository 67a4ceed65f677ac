/// The Android model's search (``AndroidFocusFinder``), exact without visiting every item.
///
/// AOSP folds `isBetterCandidate` over every focusable in view-tree order; TenFoot's order is
/// listed items in declaration order, then virtual groups' items (groups in tree order, each
/// by index), then enabled guides in declaration order. The comparison is not transitive, so
/// the answer depends on that order, and an item may be left out only where that provably
/// changes nothing. The search folds over a *ball*: the candidates whose weighted distance
/// `13·major² + minor²` lies below a bound W, found through the spatial grids and the virtual
/// groups' index arithmetic. For every candidate x outside the ball and b inside, if x never
/// beats b and b always beats x, the fold over the ball (in the same order) ends where the
/// fold over everything does: outside items are never the best once a ball item has been
/// seen, and never replace it. Comparing the rules, that holds when the ball holds a
/// candidate and
/// - **left, right**: the ball holds an in-beam candidate or no candidate outside it is in
///   the beam (in-beam candidates beat the others outright, then the smaller distance wins);
/// - **up, down**: no in-beam candidate lies outside the ball, or every out-of-beam one in it
///   lies wholly beyond the source's edge (`isToDirectionOf`) and ends (its far edge) no
///   further than the nearest in-beam candidate outside the ball begins.
/// W starts about two source lengths out (see ``androidSearch(from:_:_:_:)``) and quadruples
/// (the radius doubles) until the check passes or the ball holds every candidate. After ``maximumBallRounds`` rounds the listed
/// items are all visited, as AOSP does, with the virtual items of the last ball: exact for
/// listed items; a virtual group is then searched as far as that ball reaches (as Android's
/// RecyclerView offers only its laid-out children).
extension FocusState {
  /// How many times the ball grows before the search visits every listed item.
  static let maximumBallRounds = 12

  /// AOSP's loop over the ball of candidates that decides it (see above).
  func androidSearch(
    from source: Rect, _ reach: SearchReach, _ direction: Direction, _ skipping: [Int]
  ) -> SearchHit? {
    let origin = reach.excluded.map(androidFrame(at:)) ?? AndroidRect(source)
    let rules = AndroidBall(origin: origin, direction: direction)
    guard let span = weightSpan(rules, reach, skipping) else { return nil }  // No candidate.
    // First ball: two source lengths along the move, one source width across it (the row
    // beyond a wide programme lies within that), or the nearest container if further.
    let (width, height) = (origin.right - origin.left, origin.bottom - origin.top)
    let (along, across) = rules.horizontal ? (width, height) : (height, width)
    var bound =
      max(rules.weight(major: 2 * max(along, 16), minor: max(across, 16)), span.nearest) + 1
    for _ in 0..<Self.maximumBallRounds {
      let members = ballMembers(rules, below: bound, reach, skipping)
      if bound > span.farthest { return rules.fold(members) }  // The ball holds everything.
      if !members.isEmpty,
        rules.decides(
          members, outside: nearestInBeam(rules, from: source, atLeast: bound, reach, skipping))
      {
        return rules.fold(members)
      }
      let next = bound > Int.max / 8 ? Int.max : min(bound * 4, span.farthest + 1)
      guard virtualCells(in: rules.area(below: next), reach) <= AndroidBall.maximumBallCells else {
        break  // A ball that large would read too much of a virtual group: stop growing.
      }
      bound = next
    }
    return rules.fold(ballMembers(rules, below: bound, reach, skipping, allListed: true))
  }

  /// The candidates whose weighted distance lies below `bound` (every listed candidate with
  /// `allListed`), in AOSP's visit order.
  private func ballMembers(
    _ rules: AndroidBall, below bound: Int, _ reach: SearchReach, _ skipping: [Int],
    allListed: Bool = false
  ) -> [AndroidBall.Member] {
    var members: [AndroidBall.Member] = []
    let area = rules.area(below: bound)
    if allListed {
      for position in layout.items.indices {
        if let member = ballMember(position, rules, below: allListed ? .max : bound, reach) {
          members.append(member)
        }
      }
    } else {
      for slot in grids.indices {
        let shift = shift(ofDomain: grids[slot].domain)
        grids[slot].grid.forEach(in: area.offsetBy(dx: shift.x, dy: shift.y)) { cells in
          for cell in cells {
            if let member = ballMember(Int(cell), rules, below: bound, reach) {
              members.append(member)
            }
          }
        }
      }
    }
    forEachReachableSpan(scope: reach.scope, confine: reach.confine) { span, shift in
      guard let region = span.items.region(in: area.offsetBy(dx: shift.x, dy: shift.y)) else {
        return
      }
      for row in region.rows {
        for column in region.columns where span.items.exists(row: row, column: column) {
          let position = span.base + row * span.items.columns + column
          if let member = ballMember(position, rules, below: bound, reach) {
            members.append(member)
          }
        }
      }
    }
    // Each grid cell an item overlaps lists it: visit order, once each.
    members.sort { $0.order < $1.order }
    var unique = members.isEmpty ? 0 : 1
    for slot in members.indices.dropFirst() where members[slot].order != members[unique - 1].order {
      members[unique] = members[slot]
      unique += 1
    }
    members.removeLast(members.count - unique)
    let guideBase = Int.max - layout.guides.count
    for guide in layout.guides.indices where guideIsCandidate(guide, reach, skipping: skipping) {
      let frame = androidFrame(ofGuide: guide)
      if rules.isCandidate(frame), rules.isMember(frame, below: bound) {
        members.append(.init(order: guideBase + guide, frame: frame, guide: guide))
      }
    }
    return members
  }

  /// The item at `position` as a member of the ball below `bound`, or nil when it is not a
  /// candidate the search may return inside it.
  @inline(__always)
  private func ballMember(
    _ position: Int, _ rules: AndroidBall, below bound: Int, _ reach: SearchReach
  ) -> AndroidBall.Member? {
    guard admits(position, reach) else { return nil }
    let frame = androidFrame(at: position)
    guard rules.isCandidate(frame), rules.isMember(frame, below: bound) else { return nil }
    return AndroidBall.Member(order: position, frame: frame)
  }

  /// Whether the item at `position` is an in-beam candidate outside the ball below `bound`;
  /// its major distance if so.
  @inline(__always)
  private func outsider(
    _ position: Int, _ rules: AndroidBall, below bound: Int, _ reach: SearchReach
  ) -> Int? {
    guard admits(position, reach) else { return nil }
    let frame = androidFrame(at: position)
    guard rules.isCandidate(frame), rules.inBeam(frame), !rules.isMember(frame, below: bound)
    else { return nil }
    return rules.major(frame)
  }

  /// The least major distance of an in-beam candidate whose weighted distance is `bound` or
  /// more, or a lower bound of it; nil when there is none. Grids are walked outward along the
  /// beam; a virtual group's beam is read in strips of doubling length.
  private func nearestInBeam(
    _ rules: AndroidBall, from source: Rect, atLeast bound: Int, _ reach: SearchReach,
    _ skipping: [Int]
  ) -> Int? {
    var nearest = Int.max
    // Integer frames lie within a point or two of the presented ones.
    let wide = Rect(
      x: source.minX - 2, y: source.minY - 2, width: source.width + 4, height: source.height + 4)
    withUnsafeTemporaryAllocation(of: (floor: Double, slot: Int).self, capacity: grids.count) {
      order in
      var count = 0
      for slot in grids.indices {
        let shift = shift(ofDomain: grids[slot].domain)
        guard
          let floor = rules.floor(
            of: grids[slot].grid.bounds.offsetBy(dx: -shift.x, dy: -shift.y), source: source),
          grids[slot].grid.columns > 0
        else { continue }
        order[count] = (floor, slot)
        count += 1
      }
      var candidates = UnsafeMutableBufferPointer(rebasing: order[..<count])
      candidates.sort { ($0.floor, $0.slot) < ($1.floor, $1.slot) }
      for (floor, slot) in candidates {
        if floor > Double(nearest) { return }
        let shift = shift(ofDomain: grids[slot].domain)
        grids[slot].grid.forEachInBeam(of: wide.offsetBy(dx: shift.x, dy: shift.y), rules.direction)
        { band, cells in
          if band - 1 > Double(nearest) { return false }
          for cell in cells {
            if let major = outsider(Int(cell), rules, below: bound, reach) {
              nearest = min(nearest, major)
            }
          }
          return true
        }
      }
    }
    for guide in layout.guides.indices where guideIsCandidate(guide, reach, skipping: skipping) {
      let frame = androidFrame(ofGuide: guide)
      if rules.isCandidate(frame), rules.inBeam(frame), !rules.isMember(frame, below: bound) {
        nearest = min(nearest, rules.major(frame))
      }
    }
    forEachReachableSpan(scope: reach.scope, confine: reach.confine) { span, shift in
      nearest = min(nearest, nearestInBeam(of: span, shift, rules, wide, atLeast: bound, reach))
    }
    return nearest == Int.max ? nil : nearest
  }

  /// ``nearestInBeam(_:from:atLeast:_:_:)`` in one virtual group: its beam read in strips of
  /// doubling length; a strip of length L holds every in-beam cell less than L − 1 beyond the
  /// source's edge. Int.max when there is none.
  private func nearestInBeam(
    of span: VirtualSpan, _ shift: Point, _ rules: AndroidBall, _ wide: Rect, atLeast bound: Int,
    _ reach: SearchReach
  ) -> Int {
    guard let bounds = span.items.bounds?.offsetBy(dx: -shift.x, dy: -shift.y) else {
      return .max
    }
    var checked = 0
    var length = 64.0
    while true {
      let strip = rules.strip(of: wide, length: length)
      let region = span.items.region(in: strip.offsetBy(dx: shift.x, dy: shift.y))
      guard (region?.cellCount ?? 0) <= AndroidBall.maximumStripCells else {
        return checked  // A lower bound: no nearer one was missed.
      }
      var found = Int.max
      if let region {
        for row in region.rows {
          for column in region.columns where span.items.exists(row: row, column: column) {
            let position = span.base + row * span.items.columns + column
            if let major = outsider(position, rules, below: bound, reach) {
              found = min(found, major)
            }
          }
        }
      }
      let covered = Int(length) - 4
      if found < covered || rules.reaches(strip, past: bounds) { return found }
      checked = max(checked, covered)
      length *= 2
    }
  }

  /// How many cells of the reachable virtual groups `area` (presented space) spans.
  private func virtualCells(in area: Rect, _ reach: SearchReach) -> Int {
    var cells = 0
    forEachReachableSpan(scope: reach.scope, confine: reach.confine) { span, shift in
      let count = span.items.region(in: area.offsetBy(dx: shift.x, dy: shift.y))?.cellCount ?? 0
      cells = cells > Int.max - count ? Int.max : cells + count
    }
    return cells
  }

  /// The least and the greatest weighted distance a candidate could have, judged by the
  /// bounds (presented space) of what a search with `reach` could visit: the grids, the
  /// reachable virtual groups and the candidate guides; nil when none of them can hold a
  /// candidate. O(scroll domains + virtual groups + guides).
  private func weightSpan(_ rules: AndroidBall, _ reach: SearchReach, _ skipping: [Int])
    -> (nearest: Int, farthest: Int)?
  {
    var span: (nearest: Int, farthest: Int)?
    func add(_ box: Rect) {
      guard let weights = rules.weights(in: box) else { return }
      span = (min(span?.nearest ?? .max, weights.least), max(span?.farthest ?? 0, weights.most))
    }
    for slot in grids.indices where grids[slot].grid.columns > 0 {
      let shift = shift(ofDomain: grids[slot].domain)
      let box = grids[slot].grid.bounds.offsetBy(dx: -shift.x, dy: -shift.y)
      if mayHoldCandidate(slot, box, rules) { add(box) }
    }
    forEachReachableSpan(scope: reach.scope, confine: reach.confine) { span, shift in
      if let bounds = span.items.bounds { add(bounds.offsetBy(dx: -shift.x, dy: -shift.y)) }
    }
    for guide in layout.guides.indices where guideIsCandidate(guide, reach, skipping: skipping) {
      add(presentedFrame(ofGuide: guide))
    }
    return span
  }
}

extension FocusState {
  /// Whether grid `slot` may hold a candidate for the move, judged exactly in whole points:
  /// its bounds rounded as each item's frame is (rounding is monotonic, so every item's
  /// rounded frame lies inside) and moved by its scroll domain's rounded shift (every item of
  /// a domain has the domain's). `weights(in:)` allows a few points for rounding, so without
  /// this the source's own row passes for one that may hold a candidate across it, and a move
  /// with none (a bump at the top row) grows its ball over the whole row.
  /// `presented` is its bounds moved by its shift: a grid reaching a few points past the
  /// source's edge is taken without rounding anything.
  fileprivate func mayHoldCandidate(_ slot: Int, _ presented: Rect, _ rules: AndroidBall) -> Bool {
    let origin = rules.origin
    switch rules.direction {
    case .up: if presented.minY < Double(origin.top) - 3 { return true }
    case .down: if presented.maxY > Double(origin.bottom) + 3 { return true }
    case .left: if presented.minX < Double(origin.left) - 3 { return true }
    case .right: if presented.maxX > Double(origin.right) + 3 { return true }
    }
    let domain = grids[slot].domain
    let bounds = grids[slot].grid.bounds
    // The box's far edges are computed (origin plus size) and may fall an ulp short of the
    // farthest frame's: pushed out a hair first, they never round below it.
    let hair =
      1e-9 * max(1, abs(bounds.minX), abs(bounds.maxX), abs(bounds.minY), abs(bounds.maxY))
    let rounded = AndroidRect(
      Rect(
        x: bounds.minX, y: bounds.minY, width: bounds.width + hair, height: bounds.height + hair))
    let box = domain < 0 ? rounded : rounded.offsetBy(androidShift[domain])
    switch rules.direction {
    case .up: return box.top < rules.origin.top
    case .down: return box.bottom > rules.origin.bottom
    case .left: return box.left < rules.origin.left
    case .right: return box.right > rules.origin.right
    }
  }
}

/// The geometry of one Android search: the rules the ball is built and checked by.
struct AndroidBall {
  /// A candidate inside the ball: its place in AOSP's visit order and its integer frame.
  struct Member {
    var order: Int
    var frame: AndroidRect
    var guide: Int = -1

    var hit: SearchHit { guide >= 0 ? .guide(guide) : .item(order) }
  }

  /// The most cells a strip of a virtual group's beam is read in at once.
  static let maximumStripCells = 4096
  /// The most virtual cells a ball may span: the search stops growing it there.
  static let maximumBallCells = 16_384

  /// The source's frame in whole points.
  let origin: AndroidRect
  /// The move's direction.
  let direction: Direction

  var horizontal: Bool { direction == .left || direction == .right }

  func isCandidate(_ frame: AndroidRect) -> Bool {
    AndroidFocusFinder.isCandidate(origin, frame, direction)
  }
  func inBeam(_ frame: AndroidRect) -> Bool {
    AndroidFocusFinder.beamsOverlap(direction, origin, frame)
  }
  func major(_ frame: AndroidRect) -> Int {
    AndroidFocusFinder.majorAxisDistance(direction, origin, frame)
  }
  func weight(major: Int, minor: Int) -> Int {
    AndroidFocusFinder.weightedDistance(major: major, minor: minor)
  }
  func weight(_ frame: AndroidRect) -> Int {
    weight(
      major: major(frame), minor: AndroidFocusFinder.minorAxisDistance(direction, origin, frame))
  }
  func isMember(_ frame: AndroidRect, below bound: Int) -> Bool { weight(frame) < bound }

  /// AOSP's fold over the members in visit order: replace the best only when strictly better.
  func fold(_ members: [Member]) -> SearchHit? {
    var best: Member?
    for member in members
    where AndroidFocusFinder.isBetterCandidate(direction, origin, member.frame, best?.frame) {
      best = member
    }
    return best?.hit
  }

  /// Whether the fold over `members` (the ball) is the fold over every candidate, given the
  /// least major distance of an in-beam candidate outside it (nil: none). See
  /// `FocusState+AndroidSearch.swift`.
  func decides(_ members: [Member], outside nearest: Int?) -> Bool {
    guard let nearest else { return true }
    if horizontal { return members.contains { inBeam($0.frame) } }
    return members.allSatisfy { member in
      inBeam(member.frame)
        || AndroidFocusFinder.isToDirectionOf(direction, origin, member.frame)
          && AndroidFocusFinder.majorAxisDistanceToFarEdge(direction, origin, member.frame)
            <= nearest
    }
  }

  /// A rectangle (presented space) holding every candidate whose weighted distance lies below
  /// `bound`, with two points to spare for rounding.
  func area(below bound: Int) -> Rect {
    let majorReach = (Double(bound) / 13).squareRoot() + 4
    let minorReach = Double(bound).squareRoot() + 4
    let (left, top) = (Double(origin.left), Double(origin.top))
    let (right, bottom) = (Double(origin.right), Double(origin.bottom))
    let (cx, cy) = (Double(origin.centerX), Double(origin.centerY))
    switch direction {
    case .right:
      return Rect(
        x: left - 2, y: cy - minorReach, width: right - left + majorReach + 2,
        height: 2 * minorReach)
    case .left:
      return Rect(
        x: left - majorReach, y: cy - minorReach, width: right - left + majorReach + 2,
        height: 2 * minorReach)
    case .down:
      return Rect(
        x: cx - minorReach, y: top - 2, width: 2 * minorReach,
        height: bottom - top + majorReach + 2)
    case .up:
      return Rect(
        x: cx - minorReach, y: top - majorReach, width: 2 * minorReach,
        height: bottom - top + majorReach + 2)
    }
  }

  /// The least and the greatest weighted distance of a candidate whose frame lies in `box`
  /// (presented space), with a few points to spare for rounding; nil when no frame there can
  /// be a candidate.
  func weights(in box: Rect) -> (least: Int, most: Int)? {
    let near: Double
    let far: Double
    switch direction {
    case .right:
      guard box.maxX > Double(origin.right) - 3 else { return nil }
      (near, far) = (box.minX - Double(origin.right), box.maxX - Double(origin.right))
    case .left:
      guard box.minX < Double(origin.left) + 3 else { return nil }
      (near, far) = (Double(origin.left) - box.maxX, Double(origin.left) - box.minX)
    case .down:
      guard box.maxY > Double(origin.bottom) - 3 else { return nil }
      (near, far) = (box.minY - Double(origin.bottom), box.maxY - Double(origin.bottom))
    case .up:
      guard box.minY < Double(origin.top) + 3 else { return nil }
      (near, far) = (Double(origin.top) - box.maxY, Double(origin.top) - box.minY)
    }
    let centre = Double(horizontal ? origin.centerY : origin.centerX)
    let (low, high) = horizontal ? (box.minY, box.maxY) : (box.minX, box.maxX)
    let across = max(0, low - centre, centre - high)
    let widest = max(abs(low - centre), abs(high - centre))
    func weight(_ major: Double, _ minor: Double) -> Int {
      let value = 13 * major * major + minor * minor
      return value < 1e18 ? Int(value) : Int(1e18)
    }
    return (
      weight(max(0, near - 3), max(0, across - 3)), weight(max(0, far) + 3, widest + 3) + 1
    )
  }

  /// A lower bound of the major distance of any candidate in the beam whose presented frame
  /// lies in `bounds`, or nil when none can be (judged with a few points to spare for
  /// rounding).
  func floor(of bounds: Rect, source: Rect) -> Double? {
    switch direction {
    case .left, .right:
      guard bounds.maxY > source.minY - 3, bounds.minY < source.maxY + 3 else { return nil }
    case .up, .down:
      guard bounds.maxX > source.minX - 3, bounds.minX < source.maxX + 3 else { return nil }
    }
    switch direction {
    case .right: return bounds.maxX > source.maxX - 3 ? max(0, bounds.minX - source.maxX - 3) : nil
    case .left: return bounds.minX < source.minX + 3 ? max(0, source.minX - bounds.maxX - 3) : nil
    case .down: return bounds.maxY > source.maxY - 3 ? max(0, bounds.minY - source.maxY - 3) : nil
    case .up: return bounds.minY < source.minY + 3 ? max(0, source.minY - bounds.maxY - 3) : nil
    }
  }

  /// The source's beam (the `wide` source's cross range) from just behind its leading edge to
  /// `length` beyond it (presented space).
  func strip(of wide: Rect, length: Double) -> Rect {
    switch direction {
    case .right:
      return Rect(x: wide.minX, y: wide.minY, width: wide.width + length, height: wide.height)
    case .left:
      return Rect(
        x: wide.minX - length, y: wide.minY, width: wide.width + length, height: wide.height)
    case .down:
      return Rect(x: wide.minX, y: wide.minY, width: wide.width, height: wide.height + length)
    case .up:
      return Rect(
        x: wide.minX, y: wide.minY - length, width: wide.width, height: wide.height + length)
    }
  }

  /// Whether `strip` reaches past `bounds` along the direction (nothing more lies beyond).
  func reaches(_ strip: Rect, past bounds: Rect) -> Bool {
    switch direction {
    case .right: strip.maxX >= bounds.maxX
    case .left: strip.minX <= bounds.minX
    case .down: strip.maxY >= bounds.maxY
    case .up: strip.minY <= bounds.minY
    }
  }
}
