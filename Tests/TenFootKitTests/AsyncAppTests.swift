import Foundation
import Logging
import TenFootKit
import TestSupport
import Testing

/// The async surface end to end: an app connected in-process with `TenFootApp.connect`, its
/// `for await` loop doing what the template does, against a real broker process driven by the
/// real `tenfoot-remote`.
@Suite("TenFootKit's async style: events as an AsyncSequence, commands awaited", .serialized)
struct AsyncAppTests {
  /// The template's menu: three items whose pages open on select.
  static let menu = Layout(
    items: ["weather", "news", "settings"].enumerated().map { index, id in
      Item(
        id: id, title: id.capitalized,
        frame: Rect(x: 80, y: 120 + Double(index) * 130, width: 420, height: 100), toggles: false)
    }, groups: [Group(id: "menu", items: ["weather", "news", "settings"])])

  /// The template's reactions as a `for await` loop (sending nothing for the activation of an
  /// item in `ignoring`); every event goes to `seen` as it comes, "ended" when they finish.
  static func menuLoop(_ app: AppConnection, _ seen: Seen, ignoring: Set<String> = [])
    async throws
  {
    var openedFrom: String?
    for await update in app.events {
      seen.record("\(update.event)")
      switch update.event {
      case .activated(let id) where !update.screen.hasGroup("page") && !ignoring.contains(id):
        openedFrom = id
        let page = Item(
          id: "page-\(id)", title: id.capitalized,
          frame: Rect(x: 600, y: 120, width: 1200, height: 600), toggles: false,
          content: ItemContent(body: "The \(id) page."))
        try await app.patch(
          LayoutPatch(
            [
              .addGroup(Group(id: "page", trapsFocus: true), parent: nil),
              .addItem(page, group: "page"),
            ], focus: .group("page")))
      case .back where update.screen.hasGroup("page"):
        try await app.patch(
          LayoutPatch([.removeGroup("page")], focus: openedFrom.map { .item($0) }))
      default: continue
      }
    }
    seen.record("ended")
  }

  /// The menu app connected to `broker`, headless (it draws nothing).
  static func connect(_ broker: Broker, answerDeadline: Duration = TenFootApp.answerDeadline)
    throws -> AppConnection
  {
    let options = try AppOptions.parse(
      ["--renderer", "headless", "--control", broker.control, "--state", broker.state])
    return try TenFootApp.connect(
      layout: menu, options: options, answerDeadline: answerDeadline,
      logger: Logger(label: "test.async-app"))
  }

  @Test(
    "select opens the page and Menu closes it from the for-await loop; the remote prints the focus after the answer"
  )
  func selectOpensPageMenuReturns() async throws {
    let broker = try Broker()
    let app = try Self.connect(broker)
    let seen = Seen()
    var lines = seen.stream.makeAsyncIterator()
    let loop = Task { try await Self.menuLoop(app, seen) }
    _ = try await lines.waitFor("the joined event", seen: seen) { $0 == "joined" }
    let opened = try await broker.remote(["press", "down", "select"])
    #expect(opened.status == 0, "\(opened.errors)")
    // The broker held the select's reply until the loop's patch: the focus is inside the page.
    #expect(opened.output.last?.hasSuffix("focused page-news") == true, "\(opened.output)")
    _ = try await lines.waitFor("the activation", seen: seen) { $0 == #"activated("news")"# }
    let back = try await broker.remote(["press", "menu"])
    #expect(back.output.last == "menu: back; focused news", "\(back.output)")
    _ = try await lines.waitFor("back", seen: seen) { $0 == "back" }
    app.stop()
    _ = try await lines.waitFor("the end of the events", seen: seen) { $0 == "ended" }
    try await loop.value
    try await within(10, "the connection's end") { try await app.waitUntilStopped() }
  }

  @Test("kill -9 of the broker and a restart: the loop gets .resynced and answers the next select")
  func resyncedAfterBrokerCrash() async throws {
    let broker = try Broker()
    let app = try Self.connect(broker)
    defer { app.stop() }
    let seen = Seen()
    var lines = seen.stream.makeAsyncIterator()
    let loop = Task { try await Self.menuLoop(app, seen) }
    defer { loop.cancel() }
    _ = try await lines.waitFor("the joined event", seen: seen) { $0 == "joined" }
    try broker.restart()
    _ = try await lines.waitFor("the resync", seconds: 15, seen: seen) { $0 == "resynced" }
    let opened = try await broker.remote(["press", "select"])
    #expect(opened.output.last?.hasSuffix("focused page-weather") == true, "\(opened.output)")
  }

  @Test("cancelling the loop's task stops the connection; a command after the stop throws")
  func cancellationStops() async throws {
    let broker = try Broker()
    let app = try Self.connect(broker)
    defer { app.stop() }
    let seen = Seen()
    var lines = seen.stream.makeAsyncIterator()
    let loop = Task { try await Self.menuLoop(app, seen) }
    _ = try await lines.waitFor("the joined event", seen: seen) { $0 == "joined" }
    loop.cancel()
    _ = try await lines.waitFor("the end of the events", seen: seen) { $0 == "ended" }
    try await within(10, "the connection's end after the cancel") {
      try await app.waitUntilStopped()
    }
    await #expect(throws: AppConnection.CommandError.self) {
      try await app.focus(.item("news"))
    }
  }

  @Test(
    "a loop that sends nothing for an activation answers it when it moves on, before any deadline: the broker still waits for the app's next answer"
  )
  func unansweredActivation() async throws {
    let broker = try Broker()
    // The screen's own deadline never fires here: only the loop's empty answer, or the
    // broker's 250 ms, can end the first hold.
    let app = try Self.connect(broker, answerDeadline: .seconds(60))
    defer { app.stop() }
    let seen = Seen()
    var lines = seen.stream.makeAsyncIterator()
    let loop = Task { try await Self.menuLoop(app, seen, ignoring: ["weather"]) }
    defer { loop.cancel() }
    _ = try await lines.waitFor("the joined event", seen: seen) { $0 == "joined" }
    let pressed = try await broker.remote(["press", "select", "down", "select"])
    #expect(pressed.status == 0, "\(pressed.errors)")
    #expect(pressed.output.first?.hasSuffix("focused weather") == true, "\(pressed.output)")
    // Had the first hold run out, the broker would presume the app gone and answer the
    // second select before the app's patch ("focused news").
    #expect(pressed.output.last?.hasSuffix("focused page-news") == true, "\(pressed.output)")
  }
}
