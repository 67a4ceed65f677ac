import TenFootKit

/// A menu whose items open a page on select; Menu (back) closes it and focus returns.
final class MenuApp: ScreenApp {
  let pages = [
    ("weather", "Weather", "Sunny, 21 °C. Light wind from the west."),
    ("news", "News", "The river festival opens on Saturday."),
    ("settings", "Settings", "Nothing to set yet: this is a template."),
  ]
  var openedFrom: String?

  var layout: Layout? {
    let items = pages.enumerated().map { index, page in
      Item(
        id: page.0, title: page.1,
        frame: Rect(x: 80, y: 120 + Double(index) * 130, width: 420, height: 100),
        toggles: false, content: ItemContent(subtitle: "Select to open"))
    }
    return Layout(items: items, groups: [Group(id: "menu", items: items.map(\.id))])
  }

  func react(to event: AppEvent, on screen: AppScreen) -> [AppCommand] {
    switch event {
    case .activated(let id) where !screen.hasGroup("page"):
      guard let page = pages.first(where: { $0.0 == id }) else { return [] }
      openedFrom = id
      let body = Item(
        id: "page-\(id)", title: page.1, frame: Rect(x: 600, y: 120, width: 1200, height: 600),
        toggles: false, content: ItemContent(body: page.2))
      return [
        .patch(
          LayoutPatch(
            [
              .addGroup(Group(id: "page", trapsFocus: true), parent: nil),
              .addItem(body, group: "page"),
            ], focus: .group("page")))
      ]
    case .back where screen.hasGroup("page"):
      return [.patch(LayoutPatch([.removeGroup("page")], focus: openedFrom.map { .item($0) }))]
    default:
      return []
    }
  }
}

TenFootApp.main(MenuApp())
