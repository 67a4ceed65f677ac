import TenFootKit

/// The template's menu in the async style: one `for await` loop over the screen's events; the
/// commands it sends for an activation or Menu are that event's answer.
@main
enum AsyncMenuApp {
  static let pages = [
    ("weather", "Weather", "Sunny, 21 °C. Light wind from the west."),
    ("news", "News", "The river festival opens on Saturday."),
    ("settings", "Settings", "Nothing to set yet: this is a template."),
  ]

  static let menu = Layout(
    items: pages.enumerated().map { index, page in
      Item(
        id: page.0, title: page.1,
        frame: Rect(x: 80, y: 120 + Double(index) * 130, width: 420, height: 100),
        toggles: false, content: ItemContent(subtitle: "Select to open"))
    }, groups: [Group(id: "menu", items: pages.map(\.0))])

  static func main() async {
    await TenFootApp.main(layout: menu) { app in
      var openedFrom: String?
      for await update in app.events {
        switch update.event {
        case .activated(let id) where !update.screen.hasGroup("page"):
          guard let page = pages.first(where: { $0.0 == id }) else { continue }
          openedFrom = id
          let body = Item(
            id: "page-\(id)", title: page.1, frame: Rect(x: 600, y: 120, width: 1200, height: 600),
            toggles: false, content: ItemContent(body: page.2))
          try await app.patch(
            LayoutPatch(
              [
                .addGroup(Group(id: "page", trapsFocus: true), parent: nil),
                .addItem(body, group: "page"),
              ],
              focus: .group("page")))
        case .back where update.screen.hasGroup("page"):
          try await app.patch(
            LayoutPatch([.removeGroup("page")], focus: openedFrom.map { .item($0) }))
        default:
          continue
        }
      }
    }
  }
}
