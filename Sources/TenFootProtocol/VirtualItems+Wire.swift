import FocusEngine

extension VirtualItems {
  /// The engine declaration a wire one describes (not yet validated): counts beyond `Int`
  /// clamp, and validation then rejects them.
  public init(wire: Tenfoot_V1_VirtualItems) {
    let arrangement: VirtualArrangement
    switch wire.arrangement {
    case .column: arrangement = .column
    case .grid: arrangement = .grid(columns: Int(clamping: wire.columns))
    case .row, .UNRECOGNIZED: arrangement = .row
    }
    self.init(
      count: Int(clamping: wire.count),
      origin: Point(x: wire.origin.x, y: wire.origin.y),
      itemSize: Size(width: wire.itemSize.width, height: wire.itemSize.height),
      spacing: Size(width: wire.spacing.width, height: wire.spacing.height),
      arrangement: arrangement, titlePrefix: wire.titlePrefix,
      content: Self.content(wire: wire.content),
      sizes: wire.sizes.isEmpty
        ? nil
        : SizeRuns(
          wire.sizes.map { SizeRun(count: Int(clamping: $0.count), length: $0.length) }))
  }

  /// Supplied content by index, from the wire (indices beyond `Int` clamp, and validation
  /// then rejects them).
  public static func content(wire: [UInt64: Tenfoot_V1_VirtualItemContent]) -> [Int:
    VirtualContent]
  {
    var content: [Int: VirtualContent] = [:]
    content.reserveCapacity(wire.count)
    for (index, item) in wire { content[Int(clamping: index)] = VirtualContent(wire: item) }
    return content
  }
}

extension VirtualContent {
  /// The engine content of one virtual item.
  public init(wire: Tenfoot_V1_VirtualItemContent) {
    self.init(
      title: wire.hasTitle ? wire.title : nil,
      content: wire.hasContent ? ItemContent(wire: wire.content) : ItemContent(),
      available: !wire.unavailable, key: wire.hasKey ? wire.key : nil)
  }
}

extension Tenfoot_V1_VirtualItemContent {
  /// The wire form of one virtual item's content.
  public init(_ content: VirtualContent) {
    self.init()
    if let title = content.title { self.title = title }
    if !content.content.isEmpty { self.content = Tenfoot_V1_ItemContent(content.content) }
    unavailable = !content.available
    if let key = content.key { self.key = key }
  }

  /// Supplied content by index, in wire form.
  public static func map(_ content: [Int: VirtualContent]) -> [UInt64:
    Tenfoot_V1_VirtualItemContent]
  {
    var wire: [UInt64: Tenfoot_V1_VirtualItemContent] = [:]
    wire.reserveCapacity(content.count)
    for (index, item) in content { wire[UInt64(clamping: index)] = Self(item) }
    return wire
  }
}

extension Tenfoot_V1_VirtualItems {
  /// The wire form of a virtual declaration.
  public init(_ virtual: VirtualItems) {
    self.init()
    count = UInt64(clamping: virtual.count)
    if virtual.origin != .zero {
      origin = .with {
        $0.x = virtual.origin.x
        $0.y = virtual.origin.y
      }
    }
    itemSize = .with {
      $0.width = virtual.itemSize.width
      $0.height = virtual.itemSize.height
    }
    if virtual.spacing != Size(width: 0, height: 0) {
      spacing = .with {
        $0.width = virtual.spacing.width
        $0.height = virtual.spacing.height
      }
    }
    switch virtual.arrangement {
    case .row: arrangement = .row
    case .column: arrangement = .column
    case .grid(let columns):
      arrangement = .grid
      self.columns = UInt64(clamping: columns)
    }
    titlePrefix = virtual.titlePrefix
    content = Tenfoot_V1_VirtualItemContent.map(virtual.content)
    if let sizes = virtual.sizes {
      self.sizes = sizes.runs.map { run in
        .with {
          $0.count = UInt64(clamping: run.count)
          $0.length = run.length
        }
      }
    }
  }
}
