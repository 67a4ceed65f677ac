/// The focus state of one screen session: its layout, the focused item, a held select press,
/// the selected (toggled) items, each group's remembered item and scroll offset. Changed only
/// by ``reduce(_:_:)``.
///
/// Display states are derived from these facts, never stored (see ``displayState(of:)``), so
/// they cannot disagree with them.
public struct FocusState: Sendable, Equatable {
  /// The current layout (validated).
  public internal(set) var layout: Layout
  /// The focused item, or nil when nothing can take focus.
  public internal(set) var focused: String? {
    get { focusedID }
    set {
      focusedID = newValue
      focusedAt = newValue.flatMap { index.position(of: $0) }
    }
  }
  /// The storage of `focused`; ``setFocused(_:at:)`` sets it with its known position.
  private var focusedID: String?
  /// Where `focused` is in the index, kept with it: a move looks at the focused position
  /// several times, and a virtual item's `group#index` id is parsed once per focus change
  /// instead of at every look. Set again when the index is rebuilt (``replace(_:)``).
  private(set) var focusedAt: Int?
  /// The item the select button is held down on; only ever the focused item.
  public internal(set) var pressed: String?
  /// The ids of items whose selected flag is set.
  public internal(set) var selected: Set<String>
  /// Group id → the item focused there last. Kept by id, so it survives a layout replacement
  /// that keeps the ids. Stored by group index (``rememberedAt``).
  public internal(set) var lastFocused: [String: String] {
    get { Self.byID(rememberedAt, index) }
    set { rememberedAt = Self.byIndex(newValue, index) }
  }
  /// Group id → the item focused last among the group's own (direct) items: the previously
  /// focused item of the group's Tab stop, which focus in a nested group does not overwrite.
  /// Stored by group index (``rememberedOwnAt``).
  var lastFocusedOwn: [String: String] {
    get { Self.byID(rememberedOwnAt, index) }
    set { rememberedOwnAt = Self.byIndex(newValue, index) }
  }
  /// Per group index: ``lastFocused`` of the group (nil: none). A focus change writes it by
  /// index, without hashing the group's id.
  var rememberedAt: [String?]
  /// Per group index: ``lastFocusedOwn`` of the group (nil: none).
  var rememberedOwnAt: [String?]
  /// Scrolling group id → its scroll offset (content moved left and up by this much).
  public internal(set) var scrollOffsets: [String: Point]
  /// Text field id → its current value.
  public internal(set) var textValues: [String: String]
  /// Whether the last focus change came from a directional input (arrows, swipes); decides
  /// how focus recovers when its item vanishes.
  public internal(set) var lastInputWasDirectional: Bool
  /// Whether the last input was the pointer: if the focused item then vanishes, focus is
  /// hidden rather than moved.
  public internal(set) var lastInputWasPointer: Bool
  /// The session's pointer.
  public internal(set) var pointer: PointerState
  /// The `revealOnPointer` groups the pointer is over (their items are available).
  public internal(set) var revealed: Set<String>
  /// Virtual group id → the region of its items its app was last asked to fill (see
  /// ``VirtualWant``).
  public internal(set) var virtualWanted: [String: VirtualWant] {
    didSet { wantedBySpan.forget() }
  }
  /// `virtualWanted` by virtual span, for the content request's check after each step
  /// (``WantedBySpan``); forgotten whenever `virtualWanted` or the index changes.
  var wantedBySpan = WantedBySpan()
  /// Tables derived from the layout (changed in place only by an attribute-only patch,
  /// `FocusState+AttributePatch.swift`).
  var index: LayoutIndex {
    didSet { wantedBySpan.forget() }
  }
  /// Per group index: the sum of the scroll offsets of the group and its scrolling ancestors.
  var shift: [Point]
  /// Per group index: its own scroll offset (`scrollOffsets` by index, zero when absent).
  var ownOffset: [Point]
  /// Per group index: the innermost scrolling group at or above it, or -1.
  private var scrollDomain: [Int]
  /// One spatial index per scroll domain (the items that share a scroll offset), by domain:
  /// the root's (-1) first, then the scrolling groups' in tree order.
  private(set) var grids: [DomainGrid]
  /// Per item: its content frame in whole points, for the Android model.
  private var androidFrames: [AndroidRect]
  /// Per group index: `shift` rounded to whole points (Android scrolls by whole pixels).
  var androidShift: [AndroidOffset]

  /// Validates `layout` and places focus by the initial-focus rule: `initialFocus` if it is
  /// focusable, else the first focusable item in reading order, else none.
  public init(layout: Layout) throws(LayoutError) {
    try layout.validate()
    self.layout = layout
    self.index = LayoutIndex(layout)
    self.selected = Set(layout.items.lazy.filter(\.selected).map(\.id))
    self.pressed = nil
    self.focusedID = nil
    self.focusedAt = nil
    self.rememberedAt = Array(repeating: nil, count: index.nodes.count)
    self.rememberedOwnAt = Array(repeating: nil, count: index.nodes.count)
    self.scrollOffsets = [:]
    self.lastInputWasDirectional = false
    self.lastInputWasPointer = false
    self.pointer = PointerState()
    self.revealed = []
    self.textValues = Dictionary(
      layout.items.lazy.filter { $0.kind == .textField }.map { ($0.id, $0.value) },
      uniquingKeysWith: { first, _ in first })
    self.shift = []
    self.ownOffset = []
    self.scrollDomain = []
    self.grids = []
    self.androidFrames = []
    self.androidShift = []
    self.virtualWanted = [:]
    rebuildDerived()
    if let first = initialFocus() {
      focus(first)
      // Initial focus follows the same selection rule as every later focus change.
      var effects: [FocusEffect] = []
      if let position = index.position(of: first) { followSelection(position, &effects) }
    }
    // The first window of each virtual group: a registration's snapshot asks for it whole.
    _ = askForVirtualContent()
  }

  /// The item with this id, if the layout has one.
  public func item(_ id: String) -> Item? {
    index.position(of: id).map { itemValue(at: $0) }
  }

  /// The group with this id, if the layout has one.
  public func group(_ id: String) -> Group? {
    index.groupIndex[id].map { index.groupValues[$0] }
  }

  /// Whether the item can take focus: it is available and no group around it is disabled.
  public func isFocusable(_ id: String) -> Bool {
    index.position(of: id).map { index.isFocusable($0) } ?? false
  }

  /// The display state of an item, or nil for an unknown id.
  ///
  /// Unavailable if it cannot take focus; highlighted while the select press is down on the
  /// focused item; focused; selected if its flag is set; otherwise unfocused.
  public func displayState(of id: String) -> FocusDisplayState? {
    guard let position = index.position(of: id) else { return nil }
    return displayState(at: position)
  }

  /// Sets ``focused`` to `id`, whose position in the index the caller already knows (a move's
  /// winner): a virtual item's `group#index` id is not parsed back. `position` must be
  /// `index.position(of: id)` (`VirtualStepTests` holds `itemID(at:)` to that).
  mutating func setFocused(_ id: String?, at position: Int?) {
    assert(position == id.flatMap { index.position(of: $0) }, "position is not the id's")
    focusedID = id
    focusedAt = position
  }

  /// The focused item's display state (nil when nothing is focused): ``displayState(of:)``
  /// of ``focused``, read at the position kept with the focus instead of looking the id up.
  public var focusedDisplayState: FocusDisplayState? {
    // Not `focusedAt.map(displayState(at:))`: the method reference would copy the state.
    guard let position = focusedAt else { return nil }
    return displayState(at: position)
  }

  /// The display state of an item of this layout (for walking `layout.items`).
  public func displayState(of item: Item) -> FocusDisplayState {
    guard let position = index.position(of: item.id) else { return .unavailable }
    return displayState(at: position)
  }

  /// The display state of every item, keyed by id.
  public func displayStates() -> [String: FocusDisplayState] {
    var states: [String: FocusDisplayState] = [:]
    states.reserveCapacity(layout.items.count)
    for position in layout.items.indices {
      states[itemID(at: position)] = displayState(at: position)
    }
    return states
  }

  func displayState(at position: Int) -> FocusDisplayState {
    displayState(at: position, focused: focused, pressed: pressed, selected: selected)
  }

  /// ``displayState(at:)`` with the facts besides the layout tables given: the focused item,
  /// the pressed one and the selection (this state's, or a ``Prior``'s).
  func displayState(
    at position: Int, focused: String?, pressed: String?, selected: Set<String>
  ) -> FocusDisplayState {
    if !index.isFocusable(position) {
      return itemKind(at: position) == .label ? .unfocused : .unavailable
    }
    let id = itemID(at: position)
    if id == focused { return id == pressed ? .highlighted : .focused }
    return selected.contains(id) ? .selected : .unfocused
  }

  /// The item's frame as shown: its content frame moved by its scroll containers' offsets.
  public func presentedFrame(of id: String) -> Rect? {
    index.position(of: id).map(presentedFrame(at:))
  }

  func presentedFrame(at position: Int) -> Rect {
    let frame = contentFrame(at: position)
    let group = index.groupOf(position)
    guard group >= 0 else { return frame }
    let offset = shift[group]
    return frame.offsetBy(dx: -offset.x, dy: -offset.y)
  }

  /// The group directly containing the item, or nil for a top-level item or unknown id.
  public func groupID(of itemID: String) -> String? {
    guard let position = index.position(of: itemID) else { return nil }
    let group = index.groupOf(position)
    return group >= 0 ? index.nodes[group].id : nil
  }

  /// The innermost trapping group around the focused item, or -1.
  var trapScope: Int {
    guard let focused, let position = index.position(of: focused) else { return -1 }
    return trapScope(ofItem: position)
  }

  func trapScope(ofItem position: Int) -> Int {
    let group = index.groupOf(position)
    guard group >= 0 else { return -1 }
    for ancestor in index.ancestors(of: group) where index.groupValues[ancestor].trapsFocus {
      return ancestor
    }
    return -1
  }

  /// The search model for a move starting at this item: the innermost group's `search`,
  /// else the layout's.
  func searchModel(forItem position: Int) -> SearchModel {
    let group = index.groupOf(position)
    if group >= 0 {
      for ancestor in index.ancestors(of: group) {
        if let model = index.groupValues[ancestor].search { return model }
      }
    }
    return layout.search
  }

  /// The navigation model for a move starting at this item: the innermost group's
  /// `navigation`, else the layout's.
  func navigation(forItem position: Int) -> NavigationModel {
    let group = index.groupOf(position)
    if group >= 0 {
      for ancestor in index.ancestors(of: group) {
        if let model = index.groupValues[ancestor].navigation { return model }
      }
    }
    return layout.navigation
  }

  /// The navigation model arrows follow from this item, or nil for an unknown id.
  public func navigation(of id: String) -> NavigationModel? {
    index.position(of: id).map(navigation(forItem:))
  }

  /// How the item shows focus: its own `focusEffect`, else its navigation model's default;
  /// nil for an unknown id.
  public func focusEffect(of id: String) -> FocusEffectStyle? {
    guard let position = index.position(of: id) else { return nil }
    return itemValue(at: position).focusEffect
      ?? .default(for: navigation(forItem: position))
  }

  // MARK: - Mutation helpers used by the reducer

  /// Replaces the layout, keeping selections, memories and scroll offsets of ids that remain
  /// (a virtual item's following its key: ``followVirtualKeys(_:)``);
  /// returns the text changes the new layout's declared values make (see
  /// ``textFields(of:keeping:declared:)``).
  mutating func replace(_ newLayout: Layout) -> [FocusEffect] {
    let changes: [FocusEffect]
    (textValues, changes) = textFields(of: newLayout, keeping: textValues)
    let keyed = storedVirtualKeys()
    // Taken by id before the group indices change, and put back by the new ones.
    let remembered = (lastFocused, lastFocusedOwn)
    layout = newLayout
    index = LayoutIndex(newLayout)
    (lastFocused, lastFocusedOwn) = remembered
    if !keyed.isEmpty { followVirtualKeys(keyed) }
    let index = self.index
    focusedAt = focused.flatMap { index.position(of: $0) }
    selected = selected.filter { index.position(of: $0) != nil }
      .union(newLayout.items.lazy.filter(\.selected).map(\.id))
    lastFocused = lastFocused.filter {
      index.groupIndex[$0.key] != nil && index.position(of: $0.value) != nil
    }
    lastFocusedOwn = lastFocusedOwn.filter { entry in
      guard let group = index.groupIndex[entry.key], let item = index.position(of: entry.value)
      else { return false }
      return index.groupOf(item) == group
    }
    scrollOffsets = scrollOffsets.filter {
      index.groupIndex[$0.key].map { index.groupValues[$0].scroll != nil } ?? false
    }
    if let pressed, index.position(of: pressed) == nil { self.pressed = nil }
    if let target = pointer.target, index.position(of: target) == nil { pointer.target = nil }
    revealed = revealed.filter { index.groupIndex[$0] != nil }
    applyReveal()
    rebuildDerived()
    return changes
  }

  /// Makes the items of the `revealOnPointer` groups in `revealed` focusable again (if they
  /// would be otherwise) and those of the others not.
  mutating func applyReveal() {
    guard index.usesReveal else { return }
    for position in layout.items.indices {
      index.focusable[position] = index.baseFocusable(position, layout) && isRevealed(position)
    }
    index.recountFocusable()
    for span in index.virtualSpans.indices {
      let group = index.virtualSpans[span].group
      index.virtualSpans[span].focusable = index.nodes[group].enabled && isRevealed(group: group)
    }
  }

  /// Whether every `revealOnPointer` group around the item is revealed.
  func isRevealed(_ position: Int) -> Bool {
    isRevealed(group: index.groupOf(position))
  }

  /// Whether every `revealOnPointer` group at or around `group` is revealed.
  func isRevealed(group: Int) -> Bool {
    guard group >= 0 else { return true }
    for ancestor in index.ancestors(of: group) where index.groupValues[ancestor].revealOnPointer {
      if !revealed.contains(index.nodes[ancestor].id) { return false }
    }
    return true
  }

  /// The text fields of `newLayout` with their session text, and the text changes that makes.
  ///
  /// A field keeps its text from `old` while its declared `value` stays what the current
  /// layout declared; a new field starts with its declared value. A field whose declared value
  /// changes takes the new value, as a script setting an input's `.value` overwrites it: the
  /// app's write wins over text the remote typed, even into the focused field (its typing goes
  /// on from the new value). That is a ``FocusEffect/textChanged(id:value:)``, in layout
  /// order, unless the text already was the new value.
  private func textFields(of newLayout: Layout, keeping old: [String: String])
    -> (values: [String: String], changes: [FocusEffect])
  {
    var values: [String: String] = [:]
    var changes: [FocusEffect] = []
    for item in newLayout.items where item.kind == .textField {
      guard let text = old[item.id] else {
        values[item.id] = item.value
        continue
      }
      let declared = index.itemIndex[item.id].map { layout.items[$0].value }
      if let declared, declared != item.value {
        values[item.id] = item.value
        if text != item.value { changes.append(.textChanged(id: item.id, value: item.value)) }
      } else {
        values[item.id] = text
      }
    }
    return (values, changes)
  }

  /// Seeds text fields' session text without touching their declared values (so a later layout
  /// declaring the same values keeps it); ids that are not text fields, or text over
  /// ``Layout/maximumTextLength``, are ignored.
  mutating func restore(text: [String: String]) {
    for (id, value) in text where textValues[id] != nil {
      guard value.utf8.count <= Layout.maximumTextLength else { continue }
      textValues[id] = value
    }
  }

  /// A memory by group index as a table by group id.
  private static func byID(_ memory: [String?], _ index: LayoutIndex) -> [String: String] {
    var table: [String: String] = [:]
    for group in memory.indices.prefix(index.nodes.count) {
      if let item = memory[group] { table[index.nodes[group].id] = item }
    }
    return table
  }

  /// A table by group id as a memory by group index (groups the layout lacks are dropped).
  private static func byIndex(_ table: [String: String], _ index: LayoutIndex) -> [String?] {
    var memory: [String?] = Array(repeating: nil, count: index.nodes.count)
    for (group, item) in table {
      if let node = index.groupIndex[group] { memory[node] = item }
    }
    return memory
  }

  /// Whether `memory` is ``memory`` (what the groups remember), compared in place: no table is
  /// built. O(groups).
  public func remembers(_ memory: FocusMemory) -> Bool {
    Self.matches(rememberedAt, memory.lastFocused, index)
      && Self.matches(rememberedOwnAt, memory.lastFocusedOwn, index)
  }

  /// Whether a memory by group index holds exactly the entries of a table by group id.
  private static func matches(
    _ memory: [String?], _ table: [String: String], _ index: LayoutIndex
  ) -> Bool {
    var count = 0
    for group in memory.indices.prefix(index.nodes.count) {
      guard let item = memory[group] else { continue }
      count += 1
      guard table[index.nodes[group].id] == item else { return false }
    }
    return count == table.count
  }

  /// What the groups remember, for saving and ``FocusEvent/restoreMemory(_:)``.
  public var memory: FocusMemory {
    FocusMemory(lastFocused: lastFocused, lastFocusedOwn: lastFocusedOwn)
  }

  mutating func restore(_ memory: FocusMemory) {
    for (group, item) in memory.lastFocused {
      guard let groupIndex = index.groupIndex[group], let position = index.position(of: item),
        index.contains(group: groupIndex, item: position)
      else { continue }
      lastFocused[group] = item
    }
    for (group, item) in memory.lastFocusedOwn {
      guard let groupIndex = index.groupIndex[group], let position = index.position(of: item),
        index.groupOf(position) == groupIndex
      else { continue }
      lastFocusedOwn[group] = item
    }
  }

  /// Whether the focused item is a text field (the remote may type).
  public var isEditingText: Bool {
    focusedPosition.map { itemKind(at: $0) == .textField } ?? false
  }

  private mutating func rebuildDerived() {
    scrollDomain = [Int](repeating: -1, count: index.nodes.count)
    for group in index.nodes.indices {
      let parent = index.nodes[group].parent
      scrollDomain[group] =
        index.groupValues[group].scroll != nil ? group : (parent >= 0 ? scrollDomain[parent] : -1)
    }
    rebuildShift()
    var members: [Int: [Int]] = [:]
    for position in layout.items.indices {
      let group = index.groupOf(position)
      members[group >= 0 ? scrollDomain[group] : -1, default: []].append(position)
    }
    let frames = layout.items.map(\.frame)
    androidFrames = frames.map(AndroidRect.init)
    grids = members.keys.sorted().map { domain in
      DomainGrid(domain: domain, grid: SpatialIndex(frames: frames, members: members[domain] ?? []))
    }
  }

  /// The item's presented frame in whole points: its rounded content frame moved by its
  /// groups' rounded scroll offset (as Android's integer layout and scroll positions would).
  func androidFrame(at position: Int) -> AndroidRect {
    let group = index.groupOf(position)
    let frame =
      index.isVirtual(position)
      ? AndroidRect(contentFrame(at: position)) : androidFrames[position]
    return group < 0 ? frame : frame.offsetBy(androidShift[group])
  }

  /// A guide's presented frame in whole points (see ``androidFrame(at:)``).
  func androidFrame(ofGuide guide: Int) -> AndroidRect {
    let group = index.guideGroup[guide]
    let frame = AndroidRect(layout.guides[guide].frame)
    return group < 0 ? frame : frame.offsetBy(androidShift[group])
  }

  /// The spatial indices with the shift that takes presented coordinates to their content
  /// space.
  func forEachGrid(_ body: (SpatialIndex, Point) -> Void) {
    for entry in grids { body(entry.grid, shift(ofDomain: entry.domain)) }
  }

  /// The scroll shift of a scroll domain (-1, the root's: none).
  func shift(ofDomain domain: Int) -> Point {
    domain < 0 ? .zero : shift[domain]
  }
}
