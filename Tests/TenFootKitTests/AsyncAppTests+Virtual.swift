import Foundation
import Logging
import TenFootKit
import TestSupport
import Testing

/// docs/apps.md's catalog, a row of 1,000,000 titles built with `Group.virtual`, as an app
/// against a real broker driven by the real `tenfoot-remote`. An extension of
/// ``AsyncAppTests`` so that it runs in their process of its own (`scripts/test`).
extension AsyncAppTests {
  @Test("the docs' virtual row: its titles take focus, select opens a title's page, Menu goes back")
  func virtualCatalog() async throws {
    let broker = try Broker()
    let options = try AppOptions.parse(
      ["--renderer", "headless", "--control", broker.control, "--state", broker.state])
    let app = try TenFootApp.connect(
      layout: VirtualGroupBuilderTests.catalog, options: options,
      logger: Logger(label: "test.virtual-app"))
    defer { app.stop() }
    let seen = Seen()
    var lines = seen.stream.makeAsyncIterator()
    let loop = Task {
      var openedFrom: String?
      for await update in app.events {
        seen.record("\(update.event)")
        switch update.event {
        case .activated(let id) where !update.screen.hasGroup("page"):
          openedFrom = id
          let number = (VirtualItems.parse(id)?.index ?? 0) + 1
          let page = Item(
            id: "page", title: "Title \(number)",
            frame: Rect(x: 600, y: 120, width: 1200, height: 600), toggles: false)
          try await app.patch(
            LayoutPatch(
              [
                .addGroup(Group(id: "page", trapsFocus: true), parent: nil),
                .addItem(page, group: "page"),
              ],
              focus: .group("page")))
        case .back where update.screen.hasGroup("page"):
          try await app.patch(
            LayoutPatch([.removeGroup("page")], focus: openedFrom.map { .item($0) }))
        default: continue
        }
      }
    }
    defer { loop.cancel() }
    _ = try await lines.waitFor("the joined event", seen: seen) { $0 == "joined" }
    let opened = try await broker.remote(["press", "right", "right", "select"])
    #expect(opened.status == 0, "\(opened.errors)")
    #expect(opened.output.first?.hasSuffix("focused titles#1") == true, "\(opened.output)")
    #expect(opened.output.last?.hasSuffix("focused page") == true, "\(opened.output)")
    _ = try await lines.waitFor("the activation", seen: seen) { $0 == #"activated("titles#2")"# }
    let back = try await broker.remote(["press", "menu"])
    #expect(back.output.last == "menu: back; focused titles#2", "\(back.output)")
    let last = try await broker.remote(["focus", "titles#999999"])
    #expect(last.output.last?.hasSuffix("focused titles#999999") == true, "\(last.output)")
  }
}
