/// Android's directional focus search, exact: AOSP `FocusFinder.findNextFocusInAbsoluteDirection`
/// and its helpers over integer rectangles, as `android.graphics.Rect` computes them.
///
/// - **Integers.** Every edge is rounded to a whole point (``AndroidRect/init(_:)``); centres
///   are `left + width / 2` with integer division, so they truncate like Java's.
/// - **Visit order.** FocusFinder walks the focusables list (view-tree order) and replaces
///   the best candidate only when the new one is strictly better; `isBetterCandidate` is not
///   transitive, so the answer depends on that order. TenFoot visits items in declaration
///   order (`layout.items`), then enabled guides in declaration order.
/// - **One deliberate difference.** Java computes `13·major² + minor²` in 32-bit `int`, which
///   overflows once the major distance passes 12,852 points; TenFoot computes in 64 bits
///   (content edges and scroll offsets clamped to ±2²⁷ points), so distant candidates keep
///   their true order.
/// - **Scrolling.** A scrolled item's integer frame is its rounded content frame moved by its
///   groups' rounded scroll offset, as Android's integer layout and scroll positions give.
public enum AndroidFocusFinder {
  /// Android's `isBetterCandidate`: whether `candidate` beats `best` (nil: nothing yet, which
  /// is what AOSP's initial "impossible" rectangle — the source moved one width the wrong
  /// way — amounts to, since it is never a candidate).
  public static func isBetterCandidate(
    _ direction: Direction, _ source: AndroidRect, _ candidate: AndroidRect, _ best: AndroidRect?
  ) -> Bool {
    guard isCandidate(source, candidate, direction) else { return false }
    guard let best, isCandidate(source, best, direction) else { return true }
    if beamBeats(direction, source, candidate, best) { return true }
    if beamBeats(direction, source, best, candidate) { return false }
    return weightedDistance(
      major: majorAxisDistance(direction, source, candidate),
      minor: minorAxisDistance(direction, source, candidate))
      < weightedDistance(
        major: majorAxisDistance(direction, source, best),
        minor: minorAxisDistance(direction, source, best))
  }

  /// `isCandidate`: the destination lies at least partly further along the direction.
  public static func isCandidate(
    _ source: AndroidRect, _ destination: AndroidRect, _ direction: Direction
  ) -> Bool {
    let (s, d) = (source, destination)
    switch direction {
    case .left: return (s.right > d.right || s.left >= d.right) && s.left > d.left
    case .right: return (s.left < d.left || s.right <= d.left) && s.right < d.right
    case .up: return (s.bottom > d.bottom || s.top >= d.bottom) && s.top > d.top
    case .down: return (s.top < d.top || s.bottom <= d.top) && s.bottom < d.bottom
    }
  }

  /// `beamsOverlap`: the perpendicular ranges overlap strictly.
  public static func beamsOverlap(
    _ direction: Direction, _ first: AndroidRect, _ second: AndroidRect
  ) -> Bool {
    switch direction {
    case .left, .right: second.bottom > first.top && second.top < first.bottom
    case .up, .down: second.right > first.left && second.left < first.right
    }
  }

  /// `isToDirectionOf`: the destination lies entirely beyond the source's edge.
  public static func isToDirectionOf(
    _ direction: Direction, _ source: AndroidRect, _ destination: AndroidRect
  ) -> Bool {
    switch direction {
    case .left: source.left >= destination.right
    case .right: source.right <= destination.left
    case .up: source.top >= destination.bottom
    case .down: source.bottom <= destination.top
    }
  }

  /// `beamBeats`: whether `first` beats `second` by being exclusively in the source's beam
  /// (for up and down only while `second` is not entirely closer).
  public static func beamBeats(
    _ direction: Direction, _ source: AndroidRect, _ first: AndroidRect, _ second: AndroidRect
  ) -> Bool {
    let firstInBeam = beamsOverlap(direction, source, first)
    let secondInBeam = beamsOverlap(direction, source, second)
    if secondInBeam || !firstInBeam { return false }
    if !isToDirectionOf(direction, source, second) { return true }
    if direction == .left || direction == .right { return true }
    return majorAxisDistance(direction, source, first)
      < majorAxisDistanceToFarEdge(direction, source, second)
  }

  /// `majorAxisDistance`: the gap between the facing edges, 0 when they overlap.
  public static func majorAxisDistance(
    _ direction: Direction, _ source: AndroidRect, _ destination: AndroidRect
  ) -> Int {
    let raw =
      switch direction {
      case .left: source.left - destination.right
      case .right: destination.left - source.right
      case .up: source.top - destination.bottom
      case .down: destination.top - source.bottom
      }
    return max(0, raw)
  }

  /// `majorAxisDistanceToFarEdge`: to the destination's far edge, at least 1.
  public static func majorAxisDistanceToFarEdge(
    _ direction: Direction, _ source: AndroidRect, _ destination: AndroidRect
  ) -> Int {
    let raw =
      switch direction {
      case .left: source.left - destination.left
      case .right: destination.right - source.right
      case .up: source.top - destination.top
      case .down: destination.bottom - source.bottom
      }
    return max(1, raw)
  }

  /// `minorAxisDistance`: between the truncated centres across the direction.
  public static func minorAxisDistance(
    _ direction: Direction, _ source: AndroidRect, _ destination: AndroidRect
  ) -> Int {
    switch direction {
    case .left, .right: abs(source.centerY - destination.centerY)
    case .up, .down: abs(source.centerX - destination.centerX)
    }
  }

  /// `getWeightedDistanceFor`: `13·major² + minor²`.
  public static func weightedDistance(major: Int, minor: Int) -> Int {
    13 * major * major + minor * minor
  }
}

/// An `android.graphics.Rect`: edges in whole points.
public struct AndroidRect: Sendable, Hashable {
  /// The leading edge.
  public var left: Int
  /// The top edge.
  public var top: Int
  /// The trailing edge.
  public var right: Int
  /// The bottom edge.
  public var bottom: Int

  /// Creates a rectangle from its edges.
  public init(left: Int, top: Int, right: Int, bottom: Int) {
    self.left = left
    self.top = top
    self.right = right
    self.bottom = bottom
  }

  /// The furthest a content edge or a scroll offset may lie from the origin: 2²⁷ points, so
  /// presented edges stay within ±2²⁸ and `13·major² + minor²` within 64 bits.
  public static let edgeLimit = 1 << 27

  /// An engine rectangle in whole points: each edge rounded to the nearest point (halves
  /// away from zero) and clamped to ±``edgeLimit``. Rounding is monotonic, so a validated
  /// frame (width and height ≥ 0) never turns inside out.
  public init(_ rect: Rect) {
    func edge(_ value: Double) -> Int {
      let limit = Double(Self.edgeLimit)
      return Int(min(limit, max(-limit, value.rounded())))
    }
    self.init(
      left: edge(rect.minX), top: edge(rect.minY), right: edge(rect.maxX),
      bottom: edge(rect.maxY))
  }

  /// The rectangle moved back by a scroll offset (content to presented coordinates).
  func offsetBy(_ scroll: AndroidOffset) -> AndroidRect {
    AndroidRect(
      left: left - scroll.dx, top: top - scroll.dy, right: right - scroll.dx,
      bottom: bottom - scroll.dy)
  }

  /// `top + height() / 2`, truncated as Java's integer division truncates.
  public var centerY: Int { top + (bottom - top) / 2 }
  /// `left + width() / 2`, truncated.
  public var centerX: Int { left + (right - left) / 2 }
}

/// A scroll offset in whole points: content moved left and up by this much.
struct AndroidOffset: Sendable, Equatable {
  /// Horizontal offset.
  var dx: Int
  /// Vertical offset.
  var dy: Int

  /// An engine offset rounded to whole points and clamped to ±``AndroidRect/edgeLimit``.
  init(_ point: Point) {
    let limit = Double(AndroidRect.edgeLimit)
    dx = Int(min(limit, max(-limit, point.x.rounded())))
    dy = Int(min(limit, max(-limit, point.y.rounded())))
  }
}
