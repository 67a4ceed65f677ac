/// A group's items declared by count and geometry instead of listed one by one: a row, a
/// column or a grid of `count` items of one size, placed by index arithmetic, or a row or a
/// column whose items' lengths along it come in runs (``sizes``).
///
/// Item `i` of a virtual group `g` has the stable id `g#i` (``VirtualItems/id(group:index:)``,
/// decimal, no leading zeros) and sits at column `i % columns`, row `i / columns`:
/// `origin + (column · (width + spacing.width), row · (height + spacing.height))`. With
/// ``sizes``, the offset along the row (column) is the sum of the lengths of the items before
/// it plus `i · spacing`, and its length is its run's (``SizeRuns``). Its title is
/// `titlePrefix` followed by `i + 1` (a placeholder until an app supplies content: ``content``).
/// An item whose content carries a ``VirtualContent/key`` is also named `g#=key`
/// (``id(group:key:)``).
/// Every virtual item is a focusable button while its group is enabled (unless its supplied
/// content says it is unavailable); the engine never makes an `Item` for one except to answer
/// a question about that one item.
public struct VirtualItems: Sendable, Hashable {
  /// How many items the group holds.
  public var count: Int
  /// The frame origin of item 0, in the group's content space.
  public var origin: Point
  /// The size of every item (with ``sizes``: the cross size only; the length along the
  /// arrangement comes from the runs).
  public var itemSize: Size
  /// Per-index lengths along a row or a column, as runs covering exactly ``count`` items (nil:
  /// every item is ``itemSize``). Not for a grid.
  public var sizes: SizeRuns?
  /// The gap between neighbouring items: `width` between columns, `height` between rows.
  public var spacing: Size
  /// A row, a column or a grid.
  public var arrangement: VirtualArrangement
  /// The placeholder title's prefix ("Title " → "Title 1234").
  public var titlePrefix: String
  /// The content apps supplied for the items near the window in view, by index (at most
  /// ``maximumContent``; see ``VirtualContent``).
  public var content: [Int: VirtualContent]

  /// Creates a virtual item declaration.
  public init(
    count: Int, origin: Point = .zero, itemSize: Size, spacing: Size = Size(width: 0, height: 0),
    arrangement: VirtualArrangement = .row, titlePrefix: String = "",
    content: [Int: VirtualContent] = [:], sizes: SizeRuns? = nil
  ) {
    self.content = content
    self.sizes = sizes
    self.count = count
    self.origin = origin
    self.itemSize = itemSize
    self.spacing = spacing
    self.arrangement = arrangement
    self.titlePrefix = titlePrefix
  }

  /// The most items one virtual group may declare.
  public static let maximumCount = 1_000_000_000
  /// The most columns a grid may declare.
  public static let maximumColumns = 1_000_000_000
  /// The most size runs one virtual group may declare.
  public static let maximumSizeRuns = 100_000

  /// Items per row: all of them for a row, 1 for a column.
  public var columns: Int {
    switch arrangement {
    case .row: max(count, 1)
    case .column: 1
    case .grid(let columns): columns
    }
  }

  /// How many rows the items fill (the last may be partial).
  public var rows: Int { count == 0 ? 0 : (count - 1) / columns + 1 }

  /// Item `index`'s frame in the group's content space. O(1); O(log runs) with ``sizes``.
  public func frame(at index: Int) -> Rect {
    frame(row: index / columns, column: index % columns)
  }

  /// The frame of the cell at (`row`, `column`).
  func frame(row: Int, column: Int) -> Rect {
    guard let sizes else {
      return Rect(
        x: origin.x + Double(column) * (itemSize.width + spacing.width),
        y: origin.y + Double(row) * (itemSize.height + spacing.height),
        width: itemSize.width, height: itemSize.height)
    }
    if arrangement == .column {
      let (start, length) = sizes.span(of: row, gap: spacing.height)
      return Rect(x: origin.x, y: origin.y + start, width: itemSize.width, height: length)
    }
    let (start, length) = sizes.span(of: column, gap: spacing.width)
    return Rect(x: origin.x + start, y: origin.y, width: length, height: itemSize.height)
  }

  /// Whether the cell at (`row`, `column`) holds an item.
  func exists(row: Int, column: Int) -> Bool {
    row >= 0 && column >= 0 && column < columns && row < rows && row * columns + column < count
  }

  /// The bounding box of all items (nil when there are none).
  public var bounds: Rect? {
    guard count > 0 else { return nil }
    let last = frame(row: rows - 1, column: min(count, columns) - 1)
    return Rect(x: origin.x, y: origin.y, width: last.maxX - origin.x, height: last.maxY - origin.y)
  }

  /// The title of item `index`: the supplied one, else the placeholder.
  public func title(at index: Int) -> String {
    content[index]?.title ?? titlePrefix + String(index + 1)
  }

  /// The stable id of item `index` of group `group`: `group#index`. Made from its bytes in
  /// one go (the group's, `#`, the digits) rather than by joining three strings, as every
  /// move onto a virtual item makes one (`VirtualStepTests` holds it to the joined form).
  public static func id(group: String, index: Int) -> String {
    guard index >= 0 else { return group + "#" + String(index) }
    var digits = 1
    var rest = index / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    let length = group.utf8.count
    return String(unsafeUninitializedCapacity: length + 1 + digits) { bytes in
      let copied = group.utf8.withContiguousStorageIfAvailable {
        UnsafeMutableRawBufferPointer(bytes).copyMemory(from: UnsafeRawBufferPointer($0))
      }
      if copied == nil { _ = bytes.initialize(from: group.utf8) }
      bytes[length] = UInt8(ascii: "#")
      var rest = index
      for slot in (length + 1..<length + 1 + digits).reversed() {
        bytes[slot] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
      }
      return length + 1 + digits
    }
  }

  /// The id that names group `group`'s item by its key: `group#=key`. Keys are ids (no `#`
  /// or `=`), and an index is only digits, so the two forms never meet.
  public static func id(group: String, key: String) -> String { group + "#=" + key }

  /// Splits a keyed id `group#=key` into its parts, or nil if `id` is not of that shape.
  public static func parseKey(_ id: String) -> (group: Substring, key: Substring)? {
    guard let hash = id.utf8.firstIndex(of: UInt8(ascii: "#")) else { return nil }
    let rest = id.utf8[id.utf8.index(after: hash)...]
    guard rest.first == UInt8(ascii: "="), rest.count > 1 else { return nil }
    return (Substring(id.utf8[..<hash]), Substring(rest.dropFirst()))
  }

  /// Splits a virtual id `group#index` into its parts, or nil if `id` is not of that shape
  /// (no `#`, or not a decimal index without leading zeros). O(length of the id).
  public static func parse(_ id: String) -> (group: Substring, index: Int)? {
    guard let hash = id.utf8.lastIndex(of: UInt8(ascii: "#")) else { return nil }
    let digits = id.utf8[id.utf8.index(after: hash)...]
    guard let first = digits.first, digits.count <= 10,
      first != UInt8(ascii: "0") || digits.count == 1
    else { return nil }
    var value = 0
    for byte in digits {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return (Substring(id.utf8[..<hash]), value)
  }

  /// The item at `index` of group `group`, made on demand with its supplied content.
  public func item(group: String, index: Int) -> Item {
    let supplied = content.isEmpty ? nil : content[index]
    return Item(
      id: Self.id(group: group, index: index), title: title(at: index), frame: frame(at: index),
      available: supplied?.available ?? true, toggles: false,
      content: supplied?.content ?? ItemContent())
  }

  /// The declaration without its supplied content: what decides the items' ids and frames.
  public var shape: VirtualItems {
    var shape = self
    shape.content = [:]
    return shape
  }

  /// Whether `shape` is this declaration's ``shape``, compared without making that copy when
  /// the declaration holds no content.
  func hasShape(_ shape: VirtualItems) -> Bool {
    content.isEmpty ? shape == self : shape == self.shape
  }
}

/// How a virtual group arranges its items.
public enum VirtualArrangement: Sendable, Hashable {
  /// One row, leading to trailing.
  case row
  /// One column, top to bottom.
  case column
  /// Rows of `columns` items, filled row by row.
  case grid(columns: Int)
}
