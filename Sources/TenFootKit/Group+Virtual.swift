extension Group {
  /// A virtual group: `count` items of one size declared by their geometry instead of listed,
  /// so a catalog of a million titles costs what is on screen (docs/layout-format.md,
  /// "Virtual groups"). Item `i` is `id#i`, titled `titlePrefix` and `i + 1`; it sits at
  /// column `i % columns`, row `i / columns` of `arrangement`, from `origin` (item 0's frame
  /// origin), `itemSize` plus `spacing` apart. A row or a column may give its items lengths of
  /// their own along it with `sizes` (runs covering exactly `count` items: an EPG row of
  /// programmes of different durations); the cross size stays `itemSize`'s.
  ///
  /// With a `viewport`, the group scrolls along its arrangement (a row sideways, a column up
  /// and down, a grid both ways) unless `scroll` says otherwise; without one it does not
  /// scroll. Any other field of the group can be set on the result.
  ///
  /// ```swift
  /// let rail = Group.virtual(
  ///   "rail", count: 1_000_000, itemSize: Size(width: 300, height: 170),
  ///   spacing: Size(width: 40, height: 0), origin: Point(x: 60, y: 400),
  ///   titlePrefix: "Title ", viewport: Rect(x: 0, y: 380, width: 1920, height: 210))
  /// ```
  public static func virtual(
    _ id: String, count: Int, itemSize: Size, spacing: Size = Size(width: 0, height: 0),
    origin: Point = .zero, arrangement: VirtualArrangement = .row, titlePrefix: String = "",
    viewport: Rect? = nil, scroll: ScrollAxis? = nil, accessibilityLabel: String? = nil,
    sizes: [SizeRun]? = nil
  ) -> Group {
    let along: ScrollAxis =
      switch arrangement {
      case .row: .horizontal
      case .column: .vertical
      case .grid: .both
      }
    return Group(
      id: id, scroll: scroll ?? viewport.map { _ in along }, viewport: viewport,
      accessibilityLabel: accessibilityLabel,
      virtual: VirtualItems(
        count: count, origin: origin, itemSize: itemSize, spacing: spacing,
        arrangement: arrangement, titlePrefix: titlePrefix, sizes: sizes.map(SizeRuns.init)))
  }
}
