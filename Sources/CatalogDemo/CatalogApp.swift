import TenFootKit

/// The demo app a screen runs on the engine: a tvOS-like home (a menu bar, a search field,
/// rows of posters that scroll sideways in a page that scrolls up and down) and a detail view.
///
/// Built on TenFootKit's public API only (`ScreenApp`), like any app. It never decides focus
/// itself; it reacts to the events of the screen and answers with commands — layout patches
/// and programmatic focus — like an app on tvOS reacting to its focus and selection callbacks:
/// - activating a poster opens the detail view: a trapping group (Play, Favourite, More Like
///   This) added by a patch that focuses it in the same step;
/// - back closes it with a patch that also names the poster that opened it as the new focus,
///   so focus comes back exactly where it was in one step, never passing anywhere else (the
///   rows' scroll offsets never changed while it was open);
/// - home closes it the same way, focusing the menu bar;
/// - the Favourite toggle's selection is remembered per poster and shown again when the
///   detail view of that poster reopens.
public final class CatalogApp: ScreenApp {
  /// The catalog shown.
  public let catalog: Catalog
  /// The canvas the layout is laid out on.
  public let canvas: Size
  /// The poster whose detail view is open (or was last open).
  public private(set) var openedFrom: String?
  /// Posters marked favourite in their detail view.
  public private(set) var favourites: Set<String> = []
  private let posters: Set<String>

  /// The menu bar titles, left to right.
  static let menu = ["Home", "Movies", "TV Shows", "Search", "Settings"]
  /// Ids of the detail view's parts.
  static let detailGroup = "detail"
  static let playID = "detail-play"
  static let favouriteID = "detail-favourite"
  /// What a poster's hint says (at high verbosity).
  static let posterHint = "Select to open its details"

  /// An app showing `catalog` on a `canvas`.
  public init(catalog: Catalog = .builtIn, canvas: Size = .tv) {
    self.catalog = catalog
    self.canvas = canvas
    var ids: Set<String> = []
    for row in catalog.rows.indices {
      for column in catalog.rows[row].posters.indices {
        ids.insert(catalog.posterID(row: row, column: column))
      }
    }
    posters = ids
  }

  /// The layout the screen starts with: the home layout.
  public var layout: Layout? { homeLayout }

  /// The home layout: the menu group, a search field, and a vertically scrolling page of
  /// horizontally scrolling rows.
  public var homeLayout: Layout {
    var items: [Item] = []
    let menuWidth = 210.0
    let menuGap = 24.0
    let menuStart = 80.0
    var menuIDs: [String] = []
    for (index, title) in Self.menu.enumerated() {
      let id = "menu-\(title.lowercased().filter(\.isLetter))"
      menuIDs.append(id)
      items.append(
        Item(
          id: id, title: title,
          frame: Rect(
            x: menuStart + Double(index) * (menuWidth + menuGap), y: 30, width: menuWidth,
            height: 70), toggles: false))
    }
    items.append(
      Item(
        id: "search", title: "Search…",
        frame: Rect(x: canvas.width - 500, y: 30, width: 420, height: 70),
        toggles: false, kind: .textField,
        accessibility: ItemAccessibility(label: "Search", traits: [.searchField])))
    let posterWidth = 300.0
    let posterHeight = 170.0
    let gap = 40.0
    // Room above each row for its heading and for the focused poster's lift.
    let rowHeight = 290.0
    let top = 150.0
    var rows: [Group] = []
    var headings: [String] = []
    for (row, entry) in catalog.rows.enumerated() {
      var ids: [String] = []
      let y = top + 30 + Double(row) * rowHeight
      // The row's heading scrolls with the page, not with the row.
      let heading = "row-\(row)-title"
      headings.append(heading)
      items.append(
        Item(
          id: heading, title: entry.title,
          frame: Rect(x: 80, y: y - 48, width: canvas.width - 160, height: 36), toggles: false,
          kind: .label))
      for (column, poster) in entry.posters.enumerated() {
        let id = catalog.posterID(row: row, column: column)
        ids.append(id)
        items.append(
          Item(
            id: id, title: poster.title,
            frame: Rect(
              x: 80 + Double(column) * (posterWidth + gap), y: y, width: posterWidth,
              height: posterHeight),
            available: poster.comingSoon != true, toggles: false,
            layers: [
              ParallaxLayer(name: "backdrop", depth: 0), ParallaxLayer(name: "art", depth: 0.5),
              ParallaxLayer(name: "title", depth: 1),
            ],
            accessibility: ItemAccessibility(hint: Self.posterHint),
            content: ItemContent(badge: poster.comingSoon == true ? "Coming soon" : nil)))
      }
      rows.append(
        Group(
          id: "row-\(row)", items: ids, remembersLastFocused: true, scroll: .horizontal,
          viewport: Rect(x: 0, y: y - 20, width: canvas.width, height: posterHeight + 40),
          scrollMargin: 80, accessibilityLabel: entry.title))
    }
    let page = Group(
      id: "page", items: headings, groups: rows, scroll: .vertical,
      viewport: Rect(x: 0, y: top, width: canvas.width, height: canvas.height - top),
      scrollMargin: 40,
      // Each row says its own title; the page's first heading is not the page's name.
      accessibilityLabel: "")
    return Layout(
      canvas: canvas, items: items,
      groups: [
        Group(
          id: "menu", items: menuIDs, preferredFocus: menuIDs.first, accessibilityLabel: "Menu"),
        Group(id: "search-bar", items: ["search"]),
        page,
      ],
      initialFocus: catalog.posterID(row: 0, column: 0))
  }

  /// The commands answering one event on `screen` (its state after the event).
  public func react(to event: AppEvent, on screen: AppScreen) -> [AppCommand] {
    let detailOpen = screen.hasGroup(Self.detailGroup)
    switch event {
    case .activated(let id) where !detailOpen && posters.contains(id):
      openedFrom = id
      return [
        .patch(LayoutPatch(openDetail(for: id, on: screen), focus: .group(Self.detailGroup)))
      ]
    case .selectionChanged(Self.favouriteID, let selected):
      guard let openedFrom else { return [] }
      if selected {
        favourites.insert(openedFrom)
      } else {
        favourites.remove(openedFrom)
      }
      return []
    case .back where detailOpen:
      // One patch closes the view and puts focus back on the poster in the same step.
      return [
        .patch(
          LayoutPatch([.removeGroup(Self.detailGroup)], focus: openedFrom.map { .item($0) }))
      ]
    case .home where detailOpen:
      return [.patch(LayoutPatch([.removeGroup(Self.detailGroup)], focus: .group("menu")))]
    case .home:
      return [.focus(.group("menu"))]
    default:
      return []
    }
  }

  /// The patch that opens the detail view of a poster, laid over the middle of the screen
  /// (the page's scroll does not move it: it sits outside the page group).
  public func openDetail(for id: String, on screen: AppScreen) -> [LayoutPatch.Operation] {
    let title = screen.item(id)?.title ?? id
    let left = (canvas.width - 1300) / 2
    var operations: [LayoutPatch.Operation] = [
      .addGroup(
        Group(
          id: Self.detailGroup, trapsFocus: true, preferredFocus: Self.playID,
          accessibilityLabel: "\(title) details"), parent: nil),
      .addItem(
        Item(
          id: Self.playID, title: "▶ Play \(title)",
          frame: Rect(x: left + 60, y: 560, width: 420, height: 90), toggles: false,
          accessibility: ItemAccessibility(label: "Play \(title)")),
        group: Self.detailGroup),
      .addItem(
        Item(
          id: Self.favouriteID, title: "Favourite",
          frame: Rect(x: left + 520, y: 560, width: 300, height: 90),
          selected: favourites.contains(id)),
        group: Self.detailGroup),
    ]
    for index in 0..<4 {
      operations.append(
        .addItem(
          Item(
            id: "detail-more-\(index)", title: "More Like This \(index + 1)",
            frame: Rect(x: left + 60 + Double(index) * 300, y: 720, width: 260, height: 150),
            toggles: false),
          group: Self.detailGroup))
    }
    return operations
  }
}
