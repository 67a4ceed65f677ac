/// One focusable item on a screen.
public struct Item: Sendable, Hashable {
  /// Unique within the layout.
  public var id: String
  /// Text shown on the item.
  public var title: String
  /// Frame in canvas points, in the unscrolled content space of its scroll containers.
  public var frame: Rect
  /// Whether the item can take focus at all.
  public var available: Bool
  /// Whether activating the item flips its `selected` flag (toggle items, the default).
  public var toggles: Bool
  /// Initial selected flag.
  public var selected: Bool
  /// A custom focus-group priority; it can only raise the item above its system priority.
  public var priority: FocusPriority?
  /// What kind of control the item is.
  public var kind: ItemKind
  /// The parallax layers of the item's image, back to front.
  public var layers: [ParallaxLayer]
  /// A text field's initial value.
  public var value: String
  /// How the item shows focus; nil: the default of its navigation model (``FocusEffectStyle``).
  public var focusEffect: FocusEffectStyle?
  /// How the item reacts when the pointer targets it (``PointerEffectStyle``).
  public var pointerEffect: PointerEffectStyle
  /// Whether the pointer is attracted to the item (its hit region grows by the layout's
  /// `pointerHitMargin` and the drawn pointer is pulled toward its centre); false for large
  /// content areas.
  public var pointerMagnetism: Bool
  /// What most items leave unset (corner radius, pointer shape, accessibility, content), kept
  /// out of line so that an item stays small (128 bytes; 288 with these inline), as every
  /// listed item of every screen is held by the broker. Nil while every part is its default.
  private var extras: Extras?

  /// The corner radius of the item's shape in points, which a halo follows; nil: the
  /// renderer's own card shape.
  public var cornerRadius: Double? {
    get { extras?.parts.cornerRadius }
    set { updateExtras { $0.cornerRadius = newValue } }
  }
  /// The pointer's shape over the item: a built-in name (``PointerShape``) or an app's own;
  /// nil: the rule of ``PointerShape`` (I-beam over text fields, the item's shape under
  /// highlight, else a circle).
  public var pointerShape: String? {
    get { extras?.parts.pointerShape }
    set { updateExtras { $0.pointerShape = newValue } }
  }
  /// What a screen reader says about it beyond its title.
  public var accessibility: ItemAccessibility {
    get { extras?.parts.accessibility ?? ItemAccessibility() }
    set { updateExtras { $0.accessibility = newValue } }
  }
  /// What it shows beyond its title: subtitle, body, badge, image, accent colour.
  public var content: ItemContent {
    get { extras?.parts.content ?? ItemContent() }
    set { updateExtras { $0.content = newValue } }
  }

  /// Creates an item.
  public init(
    id: String, title: String = "", frame: Rect, available: Bool = true, toggles: Bool = true,
    selected: Bool = false, priority: FocusPriority? = nil, kind: ItemKind = .button,
    layers: [ParallaxLayer] = [], value: String = "", focusEffect: FocusEffectStyle? = nil,
    cornerRadius: Double? = nil, pointerEffect: PointerEffectStyle = .automatic,
    pointerMagnetism: Bool = true, pointerShape: String? = nil,
    accessibility: ItemAccessibility = ItemAccessibility(), content: ItemContent = ItemContent()
  ) {
    self.id = id
    self.title = title
    self.frame = frame
    self.available = available
    self.toggles = toggles
    self.selected = selected
    self.priority = priority
    self.kind = kind
    self.layers = layers
    self.value = value
    self.focusEffect = focusEffect
    self.pointerEffect = pointerEffect
    self.pointerMagnetism = pointerMagnetism
    extras =
      Extras.Parts(
        cornerRadius: cornerRadius, pointerShape: pointerShape, accessibility: accessibility,
        content: content
      ).box
  }

  /// Changes the out-of-line parts (a new box: boxes are shared between copies of an item).
  private mutating func updateExtras(_ change: (inout Extras.Parts) -> Void) {
    var parts = extras?.parts ?? Extras.Parts()
    change(&parts)
    extras = parts.box
  }

  /// The out-of-line parts of an item, immutable (so copies of an item share them safely).
  private final class Extras: Sendable, Hashable {
    struct Parts: Hashable {
      var cornerRadius: Double?
      var pointerShape: String?
      var accessibility = ItemAccessibility()
      var content = ItemContent()

      /// A box for these parts, nil when every part is its default.
      var box: Extras? { self == Parts() ? nil : Extras(self) }
    }

    let parts: Parts

    init(_ parts: Parts) { self.parts = parts }

    static func == (lhs: Extras, rhs: Extras) -> Bool { lhs === rhs || lhs.parts == rhs.parts }
    func hash(into hasher: inout Hasher) { hasher.combine(parts) }
  }
}

/// The kind of control an item is.
public enum ItemKind: String, Sendable, Hashable, CaseIterable {
  /// A poster, a menu entry, a toggle: anything that is selected by a click.
  case button
  /// A text field: when focused, the remote may type into it.
  case textField
  /// A heading or caption (a row's title): drawn and scrolled with its group, never focusable,
  /// and shown plain rather than dimmed as unavailable.
  case label
}

/// One layer of a layered (parallax) image: deeper layers move less when the item tilts.
public struct ParallaxLayer: Sendable, Hashable {
  /// The layer's name ("background", "title", …).
  public var name: String
  /// 0 is the back of the image, 1 the front.
  public var depth: Double

  /// Creates a layer.
  public init(name: String, depth: Double) {
    self.name = name
    self.depth = depth
  }
}

/// A container of items and nested groups: a focus group (iPadOS `focusGroupIdentifier`),
/// optionally a modal trap, a scroll view, and a search-model boundary.
public struct Group: Sendable, Hashable {
  /// Unique among groups of the layout; the focus group identifier.
  public var id: String
  /// Ids of the items directly in this group, in declaration order.
  public var items: [String]
  /// Nested groups.
  public var groups: [Group]
  /// Arrows and Tab stay inside this group while focus is in it (a modal).
  public var trapsFocus: Bool
  /// Moving back into the group by arrows returns to the item focused there last.
  public var remembersLastFocused: Bool
  /// The item or group focused when the group is entered and no item has a priority.
  public var preferredFocus: String?
  /// Focusing an item in this group also selects it (a tab bar, a segmented control).
  public var selectionFollowsFocus: Bool
  /// The search model for moves that start inside this group; nil inherits.
  public var search: SearchModel?
  /// The navigation model for moves that start inside this group; nil inherits.
  public var navigation: NavigationModel?
  /// A scroll axis: the group scrolls its `viewport` to keep the focused item visible.
  public var scroll: ScrollAxis?
  /// The visible rectangle of a scrolling group, in its parent's content space.
  public var viewport: Rect?
  /// The distance kept between the focused item and the viewport's edges when scrolling.
  public var scrollMargin: Double
  /// A disabled group makes every item in it unavailable.
  public var enabled: Bool
  /// The group's spoken name when focus enters it; nil: its first heading item's title.
  public var accessibilityLabel: String?
  /// The group's items are unavailable until the pointer is over the group's region (a
  /// minimised toolbar, playback controls), then available until it leaves.
  public var revealOnPointer: Bool
  /// The group's items declared by count and geometry (``VirtualItems``) instead of listed;
  /// such a group lists no items and holds no nested groups.
  public var virtual: VirtualItems?

  /// Creates a group.
  public init(
    id: String, items: [String] = [], groups: [Group] = [], trapsFocus: Bool = false,
    remembersLastFocused: Bool = false, preferredFocus: String? = nil,
    selectionFollowsFocus: Bool = false, search: SearchModel? = nil,
    navigation: NavigationModel? = nil, scroll: ScrollAxis? = nil, viewport: Rect? = nil,
    scrollMargin: Double = Group.defaultScrollMargin, enabled: Bool = true,
    accessibilityLabel: String? = nil, revealOnPointer: Bool = false,
    virtual: VirtualItems? = nil
  ) {
    self.id = id
    self.items = items
    self.groups = groups
    self.trapsFocus = trapsFocus
    self.remembersLastFocused = remembersLastFocused
    self.preferredFocus = preferredFocus
    self.selectionFollowsFocus = selectionFollowsFocus
    self.search = search
    self.navigation = navigation
    self.scroll = scroll
    self.viewport = viewport
    self.scrollMargin = scrollMargin
    self.enabled = enabled
    self.accessibilityLabel = accessibilityLabel
    self.revealOnPointer = revealOnPointer
    self.virtual = virtual
  }

  /// The default scroll margin: 40 points, about one poster gutter on a 1920×1080 canvas.
  public static let defaultScrollMargin: Double = 40
}

/// An invisible rectangle that takes part in the directional search and, when it wins,
/// redirects focus to its first focusable destination (UIKit's `UIFocusGuide`).
public struct FocusGuide: Sendable, Hashable {
  /// Unique among guides; may not equal an item or group id.
  public var id: String
  /// Where the guide sits, in canvas points.
  public var frame: Rect
  /// Preferred destinations in order: item, group or guide ids.
  public var destinations: [String]
  /// A disabled guide is ignored.
  public var enabled: Bool
  /// The group the guide belongs to (for traps and scrolling), or nil for the root.
  public var group: String?

  /// Creates a focus guide.
  public init(
    id: String, frame: Rect, destinations: [String], enabled: Bool = true, group: String? = nil
  ) {
    self.id = id
    self.frame = frame
    self.destinations = destinations
    self.enabled = enabled
    self.group = group
  }
}

/// A screen's layout: the canvas, its items, the group tree and the focus guides.
public struct Layout: Sendable, Hashable {
  /// Canvas size in points.
  public var canvas: Size
  /// All items, in declaration order.
  public var items: [Item]
  /// Top-level groups.
  public var groups: [Group]
  /// The item focused first, if any; otherwise the first available item in reading order.
  public var initialFocus: String?
  /// The default search model.
  public var search: SearchModel
  /// Reading direction: `rtl` mirrors the Tab loop and reading-order ties.
  public var layoutDirection: LayoutDirection
  /// Focus guides.
  public var guides: [FocusGuide]
  /// The default navigation model.
  public var navigation: NavigationModel
  /// How much the screen's announcements say.
  public var verbosity: Verbosity
  /// How far beyond its frame an item with pointer magnetism is targeted, in points.
  public var pointerHitMargin: Double
  /// How long the pointer stays visible without moving, in seconds.
  public var pointerIdleTimeout: Double

  /// Creates a layout.
  public init(
    canvas: Size = .tv, items: [Item], groups: [Group] = [], initialFocus: String? = nil,
    search: SearchModel = .tvos, layoutDirection: LayoutDirection = .ltr,
    guides: [FocusGuide] = [], navigation: NavigationModel = .tvos, verbosity: Verbosity = .normal,
    pointerHitMargin: Double = Layout.defaultPointerHitMargin,
    pointerIdleTimeout: Double = Layout.defaultPointerIdleTimeout
  ) {
    self.canvas = canvas
    self.items = items
    self.groups = groups
    self.initialFocus = initialFocus
    self.search = search
    self.layoutDirection = layoutDirection
    self.guides = guides
    self.navigation = navigation
    self.verbosity = verbosity
    self.pointerHitMargin = pointerHitMargin
    self.pointerIdleTimeout = pointerIdleTimeout
  }

  /// The default pointer hit margin: 16 points (on a 1920×1080 canvas, a little less than a
  /// poster gutter, so neighbouring posters' regions do not meet).
  public static let defaultPointerHitMargin: Double = 16
  /// The default pointer idle timeout: 2 seconds.
  public static let defaultPointerIdleTimeout: Double = 2
}

/// How the directional search chooses among candidates.
public enum SearchModel: String, Sendable, Hashable, CaseIterable {
  /// tvOS: only candidates inside the beam; nearest facing edge, then centre offset.
  case tvos
  /// Android's `FocusFinder`: beam candidates first, otherwise the smallest 13·major² + minor².
  case android
}

/// How far arrows reach.
public enum NavigationModel: String, Sendable, Hashable, CaseIterable {
  /// tvOS: arrows reach every item on the screen (a trapping group still holds them).
  case tvos
  /// iPadOS: arrows move only among the items of the focused item's own focus group; Tab
  /// moves between groups.
  case ipados
}

/// How a focused item shows focus (UIKit's focus effects).
public enum FocusEffectStyle: String, Sendable, Hashable, CaseIterable {
  /// An outline around the item that follows its shape (`UIFocusHaloEffect`, the focus
  /// ring); the default in iPadOS navigation.
  case halo
  /// The highlighted appearance: accent-coloured background and text, no lift.
  case highlight
  /// tvOS: the item grows, lifts with a shadow and tilts (parallax); the default in tvOS
  /// navigation.
  case lift

  /// The effect an item shows when it declares none.
  public static func `default`(for navigation: NavigationModel) -> FocusEffectStyle {
    navigation == .ipados ? .halo : .lift
  }
}

/// The reading direction of a layout.
public enum LayoutDirection: String, Sendable, Hashable, CaseIterable {
  /// Left to right.
  case ltr
  /// Right to left: leading is the right edge.
  case rtl
}

/// The axis a group scrolls along.
public enum ScrollAxis: String, Sendable, Hashable, CaseIterable {
  /// A row that scrolls sideways.
  case horizontal
  /// A page or column that scrolls up and down.
  case vertical
  /// Both axes (an EPG grid).
  case both
}

/// A focus-group priority (iPadOS `UIFocusGroupPriority`): the primary item of a group is its
/// focusable item with the highest priority.
public struct FocusPriority: Sendable, Hashable, Comparable, RawRepresentable {
  /// The priority value.
  public var rawValue: Int
  /// Creates a priority.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// No priority: the system default for every item.
  public static let ignored = FocusPriority(rawValue: 0)
  /// The item focused last in its group.
  public static let previouslyFocused = FocusPriority(rawValue: 1000)
  /// An item the app marks as important.
  public static let prioritized = FocusPriority(rawValue: 2000)
  /// The item focused now.
  public static let currentlyFocused = FocusPriority(rawValue: Int.max)

  /// The named priorities, for the JSON format.
  public static let names: [(String, FocusPriority)] = [
    ("ignored", .ignored), ("previouslyFocused", .previouslyFocused),
    ("prioritized", .prioritized), ("currentlyFocused", .currentlyFocused),
  ]

  /// Orders by value.
  public static func < (lhs: FocusPriority, rhs: FocusPriority) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}
