import FocusEngine

extension Layout {
  /// The engine layout a wire layout describes (not yet validated: call `validate()`).
  public init(wire: Tenfoot_V1_Layout) {
    self.init(
      canvas: wire.hasCanvas
        ? Size(width: wire.canvas.width, height: wire.canvas.height) : .tv,
      items: wire.items.map(Item.init(wire:)),
      groups: wire.groups.map(Group.init(wire:)),
      initialFocus: wire.initialFocus.isEmpty ? nil : wire.initialFocus,
      search: SearchModel(wire: wire.search) ?? .tvos,
      layoutDirection: wire.layoutDirection == .rtl ? .rtl : .ltr,
      guides: wire.guides.map(FocusGuide.init(wire:)),
      navigation: NavigationModel(wire: wire.navigation) ?? .tvos,
      verbosity: Verbosity(wire: wire.verbosity),
      pointerHitMargin: wire.hasPointerHitMargin
        ? wire.pointerHitMargin : Layout.defaultPointerHitMargin,
      pointerIdleTimeout: wire.hasPointerIdleTimeout
        ? wire.pointerIdleTimeout : Layout.defaultPointerIdleTimeout)
  }
}

extension Item {
  /// The engine item a wire item describes.
  public init(wire item: Tenfoot_V1_Item) {
    self.init(
      id: item.id, title: item.title, frame: Rect(wire: item.frame),
      available: !item.unavailable, toggles: !item.momentary, selected: item.selected,
      priority: item.hasPriority ? FocusPriority(wire: item.priority) : nil,
      kind: ItemKind(wire: item.kind),
      layers: item.layers.map { ParallaxLayer(name: $0.name, depth: $0.depth) },
      value: item.value, focusEffect: FocusEffectStyle(wire: item.focusEffect),
      cornerRadius: item.hasCornerRadius ? item.cornerRadius : nil,
      pointerEffect: PointerEffectStyle(wire: item.pointerEffect),
      pointerMagnetism: !item.noPointerMagnetism,
      pointerShape: item.hasPointerShape ? item.pointerShape : nil,
      accessibility: item.hasAccessibility
        ? ItemAccessibility(wire: item.accessibility) : ItemAccessibility(),
      content: item.hasContent ? ItemContent(wire: item.content) : ItemContent())
  }
}

extension FocusPriority {
  /// A wire priority, clamped into `Int`'s range (it already is on 64-bit platforms).
  init(wire: Int64) {
    self.init(rawValue: Int(clamping: wire))
  }
}

extension Rect {
  /// The engine rectangle of a wire rectangle.
  public init(wire: Tenfoot_V1_Rect) {
    self.init(x: wire.x, y: wire.y, width: wire.width, height: wire.height)
  }
}

extension Tenfoot_V1_Rect {
  /// The wire form of a rectangle.
  public init(_ rect: Rect) {
    self.init()
    x = rect.x
    y = rect.y
    width = rect.width
    height = rect.height
  }
}

extension SearchModel {
  /// The search model a wire value names; nil for unspecified (inherit) or unknown values.
  public init?(wire: Tenfoot_V1_SearchModel) {
    switch wire {
    case .tvos: self = .tvos
    case .android: self = .android
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }
}

extension Tenfoot_V1_SearchModel {
  /// The wire form of a search model (nil: unspecified).
  public init(_ model: SearchModel?) {
    switch model {
    case .tvos: self = .tvos
    case .android: self = .android
    case nil: self = .unspecified
    }
  }
}

extension ScrollAxis {
  /// The scroll axis a wire value names; nil for none or unknown values.
  public init?(wire: Tenfoot_V1_ScrollAxis) {
    switch wire {
    case .horizontal: self = .horizontal
    case .vertical: self = .vertical
    case .both: self = .both
    case .none, .UNRECOGNIZED: return nil
    }
  }
}

extension Tenfoot_V1_ScrollAxis {
  /// The wire form of a scroll axis (nil: none).
  public init(_ axis: ScrollAxis?) {
    switch axis {
    case .horizontal: self = .horizontal
    case .vertical: self = .vertical
    case .both: self = .both
    case nil: self = .none
    }
  }
}

extension Group {
  /// The engine group a wire group describes.
  public init(wire: Tenfoot_V1_Group) {
    self.init(
      id: wire.id, items: wire.items, groups: wire.groups.map(Group.init(wire:)),
      trapsFocus: wire.trapsFocus, remembersLastFocused: wire.remembersLastFocused,
      preferredFocus: wire.preferredFocus.isEmpty ? nil : wire.preferredFocus,
      selectionFollowsFocus: wire.selectionFollowsFocus, search: SearchModel(wire: wire.search),
      navigation: NavigationModel(wire: wire.navigation),
      scroll: ScrollAxis(wire: wire.scroll),
      viewport: wire.hasViewport ? Rect(wire: wire.viewport) : nil,
      scrollMargin: wire.hasScrollMargin ? wire.scrollMargin : Group.defaultScrollMargin,
      enabled: !wire.disabled,
      accessibilityLabel: wire.hasAccessibilityLabel ? wire.accessibilityLabel : nil,
      revealOnPointer: wire.revealOnPointer,
      virtual: wire.hasVirtual ? VirtualItems(wire: wire.virtual) : nil)
  }
}

extension FocusGuide {
  /// The engine guide a wire guide describes.
  public init(wire: Tenfoot_V1_FocusGuide) {
    self.init(
      id: wire.id, frame: Rect(wire: wire.frame), destinations: wire.destinations,
      enabled: !wire.disabled, group: wire.group.isEmpty ? nil : wire.group)
  }
}

extension Tenfoot_V1_Layout {
  /// The wire form of an engine layout.
  public init(_ layout: Layout) {
    self.init()
    canvas.width = layout.canvas.width
    canvas.height = layout.canvas.height
    items = layout.items.map(Tenfoot_V1_Item.init)
    groups = layout.groups.map(Tenfoot_V1_Group.init)
    initialFocus = layout.initialFocus ?? ""
    search = Tenfoot_V1_SearchModel(layout.search)
    layoutDirection = layout.layoutDirection == .rtl ? .rtl : .ltr
    guides = layout.guides.map(Tenfoot_V1_FocusGuide.init)
    navigation = Tenfoot_V1_NavigationModel(layout.navigation)
    if layout.verbosity != .normal { verbosity = Tenfoot_V1_Verbosity(layout.verbosity) }
    if layout.pointerHitMargin != Layout.defaultPointerHitMargin {
      pointerHitMargin = layout.pointerHitMargin
    }
    if layout.pointerIdleTimeout != Layout.defaultPointerIdleTimeout {
      pointerIdleTimeout = layout.pointerIdleTimeout
    }
  }
}

extension Tenfoot_V1_Item {
  /// The wire form of an engine item.
  public init(_ item: Item) {
    self.init()
    id = item.id
    title = item.title
    frame = Tenfoot_V1_Rect(item.frame)
    unavailable = !item.available
    momentary = !item.toggles
    selected = item.selected
    if let value = item.priority { priority = Int64(value.rawValue) }
    kind = Tenfoot_V1_ItemKind(item.kind)
    layers = item.layers.map { layer in
      .with {
        $0.name = layer.name
        $0.depth = layer.depth
      }
    }
    value = item.value
    focusEffect = Tenfoot_V1_FocusEffectStyle(item.focusEffect)
    if let radius = item.cornerRadius { cornerRadius = radius }
    pointerEffect = Tenfoot_V1_PointerEffectStyle(item.pointerEffect)
    noPointerMagnetism = !item.pointerMagnetism
    if let shape = item.pointerShape { pointerShape = shape }
    if !item.accessibility.isEmpty {
      accessibility = Tenfoot_V1_ItemAccessibility(item.accessibility)
    }
    if !item.content.isEmpty { content = Tenfoot_V1_ItemContent(item.content) }
  }
}

extension ItemContent {
  /// The engine content a wire content describes.
  public init(wire: Tenfoot_V1_ItemContent) {
    self.init(
      subtitle: wire.hasSubtitle ? wire.subtitle : nil, body: wire.hasBody ? wire.body : nil,
      badge: wire.hasBadge ? wire.badge : nil, image: wire.hasImage ? wire.image : nil,
      accent: wire.hasAccent ? wire.accent : nil)
  }
}

extension Tenfoot_V1_ItemContent {
  /// The wire form of an item's content.
  public init(_ content: ItemContent) {
    self.init()
    if let value = content.subtitle { subtitle = value }
    if let value = content.body { body = value }
    if let value = content.badge { badge = value }
    if let value = content.image { image = value }
    if let value = content.accent { accent = value }
  }
}

extension Tenfoot_V1_Group {
  /// The wire form of an engine group.
  public init(_ group: Group) {
    self.init()
    id = group.id
    items = group.items
    groups = group.groups.map(Tenfoot_V1_Group.init)
    trapsFocus = group.trapsFocus
    remembersLastFocused = group.remembersLastFocused
    preferredFocus = group.preferredFocus ?? ""
    selectionFollowsFocus = group.selectionFollowsFocus
    search = Tenfoot_V1_SearchModel(group.search)
    navigation = Tenfoot_V1_NavigationModel(group.navigation)
    scroll = Tenfoot_V1_ScrollAxis(group.scroll)
    if let viewport = group.viewport { self.viewport = Tenfoot_V1_Rect(viewport) }
    if group.scrollMargin != Group.defaultScrollMargin { scrollMargin = group.scrollMargin }
    disabled = !group.enabled
    if let label = group.accessibilityLabel { accessibilityLabel = label }
    revealOnPointer = group.revealOnPointer
    if let virtual = group.virtual { self.virtual = Tenfoot_V1_VirtualItems(virtual) }
  }
}

extension Tenfoot_V1_FocusGuide {
  /// The wire form of an engine guide.
  public init(_ guide: FocusGuide) {
    self.init()
    id = guide.id
    frame = Tenfoot_V1_Rect(guide.frame)
    destinations = guide.destinations
    disabled = !guide.enabled
    group = guide.group ?? ""
  }
}

extension LayoutPatch {
  /// The engine patch a wire patch describes; an operation with no body is an error.
  public init(wire: [Tenfoot_V1_PatchOperation]) throws(LayoutError) {
    var operations: [Operation] = []
    operations.reserveCapacity(wire.count)
    for (position, operation) in wire.enumerated() {
      switch operation.op {
      case .addItem(let add):
        operations.append(
          .addItem(
            Item(wire: add.item),
            group: add.group.isEmpty ? nil : add.group,
            before: add.before.isEmpty ? nil : add.before))
      case .removeItem(let id): operations.append(.removeItem(id))
      case .moveItem(let move): operations.append(.moveItem(move.id, frame: Rect(wire: move.frame)))
      case .setItemAvailable(let set): operations.append(.setItemAvailable(set.id, set.enabled))
      case .addGroup(let add):
        operations.append(
          .addGroup(Group(wire: add.group), parent: add.parent.isEmpty ? nil : add.parent))
      case .removeGroup(let id): operations.append(.removeGroup(id))
      case .setGroupEnabled(let set): operations.append(.setGroupEnabled(set.id, set.enabled))
      case .addGuide(let guide): operations.append(.addGuide(FocusGuide(wire: guide)))
      case .removeGuide(let id): operations.append(.removeGuide(id))
      case .setGuideEnabled(let set): operations.append(.setGuideEnabled(set.id, set.enabled))
      case .setVirtualContent(let set):
        operations.append(
          .setVirtualContent(group: set.group, items: VirtualItems.content(wire: set.items)))
      case nil:
        throw LayoutError(path: "operations[\(position)]", reason: "empty operation")
      }
    }
    self.init(operations)
  }
}

extension Tenfoot_V1_PatchOperation {
  /// The wire form of a patch operation.
  public init(_ operation: LayoutPatch.Operation) {
    self.init()
    func enabled(_ id: String, _ value: Bool) -> Tenfoot_V1_SetEnabled {
      .with {
        $0.id = id
        $0.enabled = value
      }
    }
    switch operation {
    case .addItem(let item, let group, let before):
      op = .addItem(
        .with {
          $0.item = Tenfoot_V1_Item(item)
          $0.group = group ?? ""
          $0.before = before ?? ""
        })
    case .removeItem(let id): op = .removeItem(id)
    case .moveItem(let id, let frame):
      op = .moveItem(
        .with {
          $0.id = id
          $0.frame = Tenfoot_V1_Rect(frame)
        })
    case .setItemAvailable(let id, let value): op = .setItemAvailable(enabled(id, value))
    case .addGroup(let group, let parent):
      op = .addGroup(
        .with {
          $0.group = Tenfoot_V1_Group(group)
          $0.parent = parent ?? ""
        })
    case .removeGroup(let id): op = .removeGroup(id)
    case .setGroupEnabled(let id, let value): op = .setGroupEnabled(enabled(id, value))
    case .addGuide(let guide): op = .addGuide(Tenfoot_V1_FocusGuide(guide))
    case .removeGuide(let id): op = .removeGuide(id)
    case .setGuideEnabled(let id, let value): op = .setGuideEnabled(enabled(id, value))
    case .setVirtualContent(let group, let items):
      op = .setVirtualContent(
        .with {
          $0.group = group
          $0.items = Tenfoot_V1_VirtualItemContent.map(items)
        })
    }
  }
}

extension ItemKind {
  /// The engine kind of a wire kind (unknown values, refused by validation, read as a button).
  public init(wire kind: Tenfoot_V1_ItemKind) {
    switch kind {
    case .textField: self = .textField
    case .label: self = .label
    case .button, .UNRECOGNIZED: self = .button
    }
  }
}

extension Tenfoot_V1_ItemKind {
  /// The wire form of an engine kind.
  public init(_ kind: ItemKind) {
    switch kind {
    case .button: self = .button
    case .textField: self = .textField
    case .label: self = .label
    }
  }
}
