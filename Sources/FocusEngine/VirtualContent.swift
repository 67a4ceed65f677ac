/// What an app supplies for one item of a virtual group, on demand: the same content a listed
/// item carries (docs/apps.md, "Content on demand"). Missing parts fall back to the
/// placeholder: no title draws `titlePrefix` and the index + 1.
public struct VirtualContent: Sendable, Hashable {
  /// The item's title (nil: the placeholder title).
  public var title: String?
  /// Subtitle, body, badge, image and accent.
  public var content: ItemContent
  /// Whether the item can take focus (an unavailable one is skipped like a listed one).
  public var available: Bool
  /// The item's stable key (an id, unique within its group's content): while this content is
  /// held, `group#=key` names the item (``VirtualItems/id(group:key:)``), and focus, selection
  /// and remembered focus on it follow the key when a patch moves it to another index.
  public var key: String?

  /// Content for one virtual item.
  public init(
    title: String? = nil, content: ItemContent = ItemContent(), available: Bool = true,
    key: String? = nil
  ) {
    self.title = title
    self.content = content
    self.available = available
    self.key = key
  }
}

extension VirtualItems {
  /// The most items of one virtual group that hold supplied content at once: the bound on
  /// what a session keeps per virtual group (a setVirtualContent over it is refused, and
  /// merging evicts the entries farthest from the ones just supplied).
  public static let maximumContent = 1024

  /// Whether item `index` can take focus by its supplied content (no content: it can). O(1).
  @inline(__always)
  func isAvailable(_ index: Int) -> Bool {
    content.isEmpty || content[index]?.available != false
  }

  /// Merges `items` into the supplied content; if more than ``maximumContent`` items then hold
  /// content, those farthest (by index) from the middle of `items` go first. An entry whose
  /// key one of `items` now carries at another index is dropped (its item moved). O(content).
  mutating func merge(_ items: [Int: VirtualContent]) {
    let keys = Set(items.values.lazy.compactMap(\.key))
    if !keys.isEmpty {
      content = content.filter { entry in
        entry.value.key.map { !keys.contains($0) } ?? true
      }
    }
    content.merge(items) { _, new in new }
    guard content.count > Self.maximumContent, let low = items.keys.min(),
      let high = items.keys.max()
    else { return }
    let middle = low / 2 + high / 2
    let kept = Set(
      content.keys.sorted { abs($0 - middle) < abs($1 - middle) }.prefix(Self.maximumContent))
    content = content.filter { kept.contains($0.key) }
  }

  /// Drops the supplied content outside `region` (the group's wanted window). O(content).
  mutating func keepContent(in region: VirtualRegion) {
    guard content.contains(where: { !region.contains($0.key, columns: columns) }) else { return }
    content = content.filter { region.contains($0.key, columns: columns) }
  }
}

extension VirtualItems {
  /// The index of the item whose supplied content carries `key`, if any. O(content).
  public func index(ofKey key: Substring) -> Int? {
    for (index, supplied) in content where supplied.key.map({ $0[...] == key }) == true {
      return index
    }
    return nil
  }
}
