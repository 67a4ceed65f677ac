import FocusEngine

/// The embedded demo: a tvOS-like home screen on a 1920×1080 canvas — a top menu bar and
/// rows of titled posters, a few of them unavailable ("coming soon").
public enum DemoCatalog {
  /// The menu bar titles, left to right.
  static let menu = ["Home", "Movies", "TV Shows", "Search", "Settings"]

  /// Row titles and their posters; titles starting with "~" are unavailable.
  static let rows: [(title: String, posters: [String])] = [
    (
      "Up Next",
      [
        "The Long Field", "Night Train", "Blue Harbor", "~Coming Soon", "Paper Moons",
        "Glass City",
      ]
    ),
    ("Trending", ["Orbit", "~Locked", "Red Canyon", "Quiet Hours", "Signal", "Low Tide"]),
    (
      "Classics",
      [
        "Old Roads", "Silver Screen", "~Restoring", "Golden Hour", "Last Reel",
        "First Light",
      ]
    ),
    ("Kids", ["Tiny Robots", "Cloud Castle", "Sea Friends", "~Soon", "Moon Bus", "Dino Day"]),
  ]

  /// The demo layout. Ids: `menu-0`…`menu-4`, and `row<r>-<c>` for posters.
  public static var layout: Layout {
    var items: [Item] = []
    var groups: [Group] = []
    let menuWidth = 220.0
    let menuGap = 30.0
    let menuStart = (1920 - (Double(menu.count) * menuWidth + Double(menu.count - 1) * menuGap)) / 2
    var menuIDs: [String] = []
    for (index, title) in menu.enumerated() {
      let id = "menu-\(index)"
      menuIDs.append(id)
      items.append(
        Item(
          id: id, title: title,
          frame: Rect(
            x: menuStart + Double(index) * (menuWidth + menuGap), y: 30, width: menuWidth,
            height: 70), toggles: false))
    }
    groups.append(Group(id: "menu", items: menuIDs))
    let posterWidth = 270.0
    let posterHeight = 170.0
    let gap = 40.0
    let left = (1920 - (6 * posterWidth + 5 * gap)) / 2
    for (row, entry) in rows.enumerated() {
      var ids: [String] = []
      let y = 160 + Double(row) * (posterHeight + 60)
      for (column, rawTitle) in entry.posters.enumerated() {
        let id = "row\(row)-\(column)"
        ids.append(id)
        let unavailable = rawTitle.hasPrefix("~")
        items.append(
          Item(
            id: id, title: unavailable ? String(rawTitle.dropFirst()) : rawTitle,
            frame: Rect(
              x: left + Double(column) * (posterWidth + gap), y: y, width: posterWidth,
              height: posterHeight),
            available: !unavailable))
      }
      // Coming back to a row returns to the poster focused there last, as on tvOS.
      groups.append(Group(id: "row\(row)", items: ids, remembersLastFocused: true))
    }
    return Layout(canvas: .tv, items: items, groups: groups, initialFocus: "row0-0")
  }
}
