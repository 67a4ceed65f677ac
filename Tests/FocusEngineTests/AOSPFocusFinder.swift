// A port of AOSP's directional focus search, for the differential test against the engine.
//
// Source: `core/java/android/view/FocusFinder.java` from AOSP frameworks/base
// (github.com/aosp-mirror/platform_frameworks_base, commit
// 0018505370e3ac0a49e03edd5cb467ee44329a35), Copyright (C) 2007 The Android Open Source
// Project, Apache License 2.0. Ported: `findNextFocusInAbsoluteDirection`,
// `isBetterCandidate`, `beamBeats`, `getWeightedDistanceFor`, `isCandidate`, `beamsOverlap`,
// `isToDirectionOf`, `majorAxisDistance(Raw)`, `majorAxisDistanceToFarEdge(Raw)` and
// `minorAxisDistance`, statement for statement, with `android.graphics.Rect`'s `width()`,
// `height()`, `set` and `offset`. Java's `int` is `Int32` here and every operation wraps
// (`&+`, `&-`, `&*`) as Java's does; `Math.abs` of `Int32.min` stays `Int32.min`.
//
// Written independently of the engine's `AndroidFocusFinder` on purpose: nothing here calls
// FocusEngine, so a shared mistake cannot hide.

/// `android.graphics.Rect`.
struct JavaRect: Equatable {
  var left: Int32
  var top: Int32
  var right: Int32
  var bottom: Int32

  func width() -> Int32 { right &- left }
  func height() -> Int32 { bottom &- top }

  mutating func set(_ other: JavaRect) { self = other }

  mutating func offset(_ dx: Int32, _ dy: Int32) {
    left = left &+ dx
    right = right &+ dx
    top = top &+ dy
    bottom = bottom &+ dy
  }
}

/// `android.view.FocusFinder`, the absolute-direction search.
struct AOSPFocusFinder {
  // View.FOCUS_LEFT, FOCUS_UP, FOCUS_RIGHT, FOCUS_DOWN.
  static let FOCUS_LEFT: Int32 = 0x0000_0011
  static let FOCUS_UP: Int32 = 0x0000_0021
  static let FOCUS_RIGHT: Int32 = 0x0000_0042
  static let FOCUS_DOWN: Int32 = 0x0000_0082

  var mBestCandidateRect = JavaRect(left: 0, top: 0, right: 0, bottom: 0)
  var mOtherRect = JavaRect(left: 0, top: 0, right: 0, bottom: 0)

  /// `findNextFocusInAbsoluteDirection(focusables, root, focused, focusedRect, direction)`:
  /// `focusables` are the views' focus rectangles in the root's coordinates, in list order;
  /// returns the index of the closest one, or nil.
  mutating func findNextFocusInAbsoluteDirection(
    _ focusables: [JavaRect], _ focused: Int?, _ focusedRect: JavaRect, _ direction: Int32
  ) -> Int? {
    // initialize the best candidate to something impossible
    // (so the first plausible view will become the best choice)
    mBestCandidateRect.set(focusedRect)
    switch direction {
    case Self.FOCUS_LEFT:
      mBestCandidateRect.offset(focusedRect.width() &+ 1, 0)
    case Self.FOCUS_RIGHT:
      mBestCandidateRect.offset(0 &- (focusedRect.width() &+ 1), 0)
    case Self.FOCUS_UP:
      mBestCandidateRect.offset(0, focusedRect.height() &+ 1)
    case Self.FOCUS_DOWN:
      mBestCandidateRect.offset(0, 0 &- (focusedRect.height() &+ 1))
    default: break
    }

    var closest: Int?

    let numFocusables = focusables.count
    for i in 0..<numFocusables {
      // only interested in other non-root views
      if i == focused { continue }

      // get focus bounds of other view in same coordinate system
      mOtherRect = focusables[i]

      if isBetterCandidate(direction, focusedRect, mOtherRect, mBestCandidateRect) {
        mBestCandidateRect.set(mOtherRect)
        closest = i
      }
    }
    return closest
  }

  func isBetterCandidate(
    _ direction: Int32, _ source: JavaRect, _ rect1: JavaRect, _ rect2: JavaRect
  ) -> Bool {
    // to be a better candidate, need to at least be a candidate in the first
    // place :)
    if !isCandidate(source, rect1, direction) {
      return false
    }

    // we know that rect1 is a candidate.. if rect2 is not a candidate,
    // rect1 is better
    if !isCandidate(source, rect2, direction) {
      return true
    }

    // if rect1 is better by beam, it wins
    if beamBeats(direction, source, rect1, rect2) {
      return true
    }

    // if rect2 is better, then rect1 cant' be :)
    if beamBeats(direction, source, rect2, rect1) {
      return false
    }

    // otherwise, do fudge-tastic comparison of the major and minor axis
    return getWeightedDistanceFor(
      Self.majorAxisDistance(direction, source, rect1),
      Self.minorAxisDistance(direction, source, rect1))
      < getWeightedDistanceFor(
        Self.majorAxisDistance(direction, source, rect2),
        Self.minorAxisDistance(direction, source, rect2))
  }

  func beamBeats(
    _ direction: Int32, _ source: JavaRect, _ rect1: JavaRect, _ rect2: JavaRect
  ) -> Bool {
    let rect1InSrcBeam = beamsOverlap(direction, source, rect1)
    let rect2InSrcBeam = beamsOverlap(direction, source, rect2)

    // if rect1 isn't exclusively in the src beam, it doesn't win
    if rect2InSrcBeam || !rect1InSrcBeam {
      return false
    }

    // we know rect1 is in the beam, and rect2 is not

    // if rect1 is to the direction of, and rect2 is not, rect1 wins.
    if !isToDirectionOf(direction, source, rect2) {
      return true
    }

    // for horizontal directions, being exclusively in beam always wins
    if direction == Self.FOCUS_LEFT || direction == Self.FOCUS_RIGHT {
      return true
    }

    // for vertical directions, beams only beat up to a point:
    // now, as long as rect2 isn't completely closer, rect1 wins
    return Self.majorAxisDistance(direction, source, rect1)
      < Self.majorAxisDistanceToFarEdge(direction, source, rect2)
  }

  func getWeightedDistanceFor(_ majorAxisDistance: Int32, _ minorAxisDistance: Int32) -> Int32 {
    13 &* majorAxisDistance &* majorAxisDistance &+ minorAxisDistance &* minorAxisDistance
  }

  func isCandidate(_ srcRect: JavaRect, _ destRect: JavaRect, _ direction: Int32) -> Bool {
    switch direction {
    case Self.FOCUS_LEFT:
      return (srcRect.right > destRect.right || srcRect.left >= destRect.right)
        && srcRect.left > destRect.left
    case Self.FOCUS_RIGHT:
      return (srcRect.left < destRect.left || srcRect.right <= destRect.left)
        && srcRect.right < destRect.right
    case Self.FOCUS_UP:
      return (srcRect.bottom > destRect.bottom || srcRect.top >= destRect.bottom)
        && srcRect.top > destRect.top
    case Self.FOCUS_DOWN:
      return (srcRect.top < destRect.top || srcRect.bottom <= destRect.top)
        && srcRect.bottom < destRect.bottom
    default:
      preconditionFailure(
        "direction must be one of {FOCUS_UP, FOCUS_DOWN, FOCUS_LEFT, FOCUS_RIGHT}.")
    }
  }

  func beamsOverlap(_ direction: Int32, _ rect1: JavaRect, _ rect2: JavaRect) -> Bool {
    switch direction {
    case Self.FOCUS_LEFT, Self.FOCUS_RIGHT:
      return (rect2.bottom > rect1.top) && (rect2.top < rect1.bottom)
    case Self.FOCUS_UP, Self.FOCUS_DOWN:
      return (rect2.right > rect1.left) && (rect2.left < rect1.right)
    default:
      preconditionFailure(
        "direction must be one of {FOCUS_UP, FOCUS_DOWN, FOCUS_LEFT, FOCUS_RIGHT}.")
    }
  }

  func isToDirectionOf(_ direction: Int32, _ src: JavaRect, _ dest: JavaRect) -> Bool {
    switch direction {
    case Self.FOCUS_LEFT: return src.left >= dest.right
    case Self.FOCUS_RIGHT: return src.right <= dest.left
    case Self.FOCUS_UP: return src.top >= dest.bottom
    case Self.FOCUS_DOWN: return src.bottom <= dest.top
    default:
      preconditionFailure(
        "direction must be one of {FOCUS_UP, FOCUS_DOWN, FOCUS_LEFT, FOCUS_RIGHT}.")
    }
  }

  static func majorAxisDistance(_ direction: Int32, _ source: JavaRect, _ dest: JavaRect) -> Int32 {
    max(0, majorAxisDistanceRaw(direction, source, dest))
  }

  static func majorAxisDistanceRaw(_ direction: Int32, _ source: JavaRect, _ dest: JavaRect)
    -> Int32
  {
    switch direction {
    case FOCUS_LEFT: return source.left &- dest.right
    case FOCUS_RIGHT: return dest.left &- source.right
    case FOCUS_UP: return source.top &- dest.bottom
    case FOCUS_DOWN: return dest.top &- source.bottom
    default:
      preconditionFailure(
        "direction must be one of {FOCUS_UP, FOCUS_DOWN, FOCUS_LEFT, FOCUS_RIGHT}.")
    }
  }

  static func majorAxisDistanceToFarEdge(
    _ direction: Int32, _ source: JavaRect, _ dest: JavaRect
  ) -> Int32 {
    max(1, majorAxisDistanceToFarEdgeRaw(direction, source, dest))
  }

  static func majorAxisDistanceToFarEdgeRaw(
    _ direction: Int32, _ source: JavaRect, _ dest: JavaRect
  ) -> Int32 {
    switch direction {
    case FOCUS_LEFT: return source.left &- dest.left
    case FOCUS_RIGHT: return dest.right &- source.right
    case FOCUS_UP: return source.top &- dest.top
    case FOCUS_DOWN: return dest.bottom &- source.bottom
    default:
      preconditionFailure(
        "direction must be one of {FOCUS_UP, FOCUS_DOWN, FOCUS_LEFT, FOCUS_RIGHT}.")
    }
  }

  static func minorAxisDistance(_ direction: Int32, _ source: JavaRect, _ dest: JavaRect) -> Int32 {
    switch direction {
    case FOCUS_LEFT, FOCUS_RIGHT:
      // the distance between the center verticals
      return javaAbs(
        (source.top &+ source.height() / 2) &- (dest.top &+ dest.height() / 2))
    case FOCUS_UP, FOCUS_DOWN:
      // the distance between the center horizontals
      return javaAbs(
        (source.left &+ source.width() / 2) &- (dest.left &+ dest.width() / 2))
    default:
      preconditionFailure(
        "direction must be one of {FOCUS_UP, FOCUS_DOWN, FOCUS_LEFT, FOCUS_RIGHT}.")
    }
  }

  /// Java's `Math.abs(int)`: `Int32.min` stays itself.
  static func javaAbs(_ value: Int32) -> Int32 { value < 0 ? 0 &- value : value }
}
