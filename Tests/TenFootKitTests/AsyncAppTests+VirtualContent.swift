import Foundation
import Logging
import TenFootKit
import TestSupport
import Testing

/// Content on demand across processes: a broker, a headless `tenfoot-screen` showing the
/// docs' row of 1,000,000 titles, this process's TenFootKit app attached to it answering
/// `itemsInView` with titles "Movie N", and the real `tenfoot-remote`. An extension of
/// ``AsyncAppTests`` so that it runs in their process of its own (`scripts/test`).
extension AsyncAppTests {
  /// One headless frame line: the focused item, the virtual items drawn (id → title) and
  /// the content of those with any (id → subtitle).
  struct DrawnRow {
    let focused: String?
    let titles: [String: String]
    let subtitles: [String: String]

    init?(_ line: String) {
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        object["seq"] != nil
      else { return nil }
      focused = object["focused"] as? String
      titles = object["virtual"] as? [String: String] ?? [:]
      let content = object["content"] as? [String: [String: String]] ?? [:]
      subtitles = content.compactMapValues { $0["subtitle"] }
    }

    /// Whether every drawn cell shows its supplied title ("Movie N" for titles#(N-1)).
    var allSupplied: Bool {
      !titles.isEmpty
        && titles.allSatisfy { id, title in
          VirtualItems.parse(id).map { title == "Movie \($0.index + 1)" } ?? false
        }
    }
  }

  /// Waits (off the concurrency pool) for a frame of `screen` after line `start` that
  /// satisfies `predicate`.
  static func waitForRow(
    _ screen: ChildProcess, from start: Int = 0, _ what: String,
    where predicate: @escaping @Sendable (DrawnRow) -> Bool
  ) async throws -> (index: Int, row: DrawnRow) {
    let found = try await offPool {
      try screen.waitForLine(from: start, timeout: 15, what) { line in
        DrawnRow(line).map(predicate) ?? false
      }
    }
    return (found.index, try #require(DrawnRow(found.line)))
  }

  /// Writes the layout file of a 1,000,000-title virtual row (placeholder titles "Title N")
  /// into `broker`'s directory and returns its path.
  static func movieRow(in broker: Broker) throws -> String {
    let file = broker.directory.path + "/row.json"
    try Data(
      #"""
      {"canvas": {"width": 1920, "height": 1080}, "initialFocus": "titles#0", "items": [],
       "groups": [{"id": "titles", "scroll": "horizontal", "viewport": [0, 380, 1920, 210],
         "virtual": {"count": 1000000, "itemSize": {"width": 300, "height": 170},
           "spacing": {"width": 40, "height": 0}, "origin": {"x": 60, "y": 400},
           "titlePrefix": "Title "}}]}
      """#.utf8
    ).write(to: URL(fileURLWithPath: file))
    return file
  }

  /// A headless `tenfoot-screen` showing ``movieRow(in:)`` on `broker`, and the index of its
  /// first frame line (placeholder titles).
  static func movieRowScreen(_ broker: Broker) async throws -> (ChildProcess, index: Int) {
    let screen = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      [
        "--layout", try movieRow(in: broker), "--renderer", "headless", "--frames", "-",
        "--control", broker.control, "--state", broker.state,
      ], environment: broker.environment)
    do {
      let placeholders = try await waitForRow(screen, "the placeholder titles") {
        $0.titles["titles#0"] == "Title 1"
      }
      return (screen, placeholders.index)
    } catch {
      screen.kill()
      throw error
    }
  }

  /// A TenFootKit app attached to `broker`'s screen `main`.
  static func attachedApp(_ broker: Broker, label: String) throws -> AppConnection {
    let options = try AppOptions.parse(
      ["--attach", "--control", broker.control, "--state", broker.state])
    return try TenFootApp.connect(layout: nil, options: options, logger: Logger(label: label))
  }

  @Test("content on demand: the screen draws the titles the app supplies for the cells in view")
  func virtualContentOnDemand() async throws {
    let broker = try Broker()
    let (screen, placeholders) = try await Self.movieRowScreen(broker)
    defer { screen.kill() }
    let app = try Self.attachedApp(broker, label: "test.virtual-content")
    defer { app.stop() }
    let seen = Seen()
    var lines = seen.stream.makeAsyncIterator()
    let loop = Task {
      for await update in app.events {
        guard case .itemsInView(let group, let range) = update.event else { continue }
        seen.record("asked \(group) \(range.lowerBound)..<\(range.upperBound)")
        try await app.setVirtualContent(
          group: group,
          items: Dictionary(
            uniqueKeysWithValues: range.map {
              (
                $0,
                VirtualContent(
                  title: "Movie \($0 + 1)", content: ItemContent(subtitle: "No. \($0)"))
              )
            }))
      }
    }
    defer { loop.cancel() }
    _ = try await lines.waitFor("the first window asked for", seen: seen) {
      $0 == "asked titles 0..<12"
    }
    let supplied = try await Self.waitForRow(
      screen, from: placeholders, "the supplied titles drawn"
    ) { $0.allSupplied }
    #expect(supplied.row.titles["titles#0"] == "Movie 1", "\(supplied.row.titles)")
    #expect(supplied.row.subtitles["titles#0"] == "No. 0", "\(supplied.row.subtitles)")

    // Presses along the row: the window scrolls, the app is asked for what comes near it, and
    // the frame shows supplied titles only, the focused cell's content too.
    let pressed = try await broker.remote(["press"] + Array(repeating: "right", count: 9))
    #expect(pressed.status == 0, "\(pressed.errors)")
    #expect(pressed.output.last?.hasSuffix("focused titles#9") == true, "\(pressed.output)")
    _ = try await lines.waitFor("the window past the first asked for", seen: seen) {
      $0.hasPrefix("asked titles 12..<")
    }
    let moved = try await Self.waitForRow(
      screen, from: supplied.index, "titles#9 focused with the supplied titles"
    ) { $0.focused == "titles#9" && $0.allSupplied && $0.titles["titles#9"] != nil }
    #expect(moved.row.titles["titles#9"] == "Movie 10", "\(moved.row.titles)")
    #expect(moved.row.subtitles["titles#9"] == "No. 9", "\(moved.row.subtitles)")
    #expect(moved.row.titles["titles#0"] == nil, "scrolled out: \(moved.row.titles.keys.sorted())")

    // Far along: focusing index 900,000 asks for that window and the screen shows it.
    let far = try await broker.remote(["focus", "titles#900000"])
    #expect(far.status == 0, "\(far.errors)")
    _ = try await lines.waitFor("the window around 900,000 asked for", seen: seen) { line in
      guard line.hasPrefix("asked titles "), let range = line.split(separator: " ").last,
        let low = Int(range.split(separator: ".").first ?? "")
      else { return false }
      return (899_980...900_000).contains(low)
    }
    let coasted = try await Self.waitForRow(
      screen, from: moved.index, "titles#900000 focused with the supplied titles"
    ) { $0.focused == "titles#900000" && $0.allSupplied && $0.titles["titles#900000"] != nil }
    #expect(coasted.row.titles["titles#900000"] == "Movie 900001", "\(coasted.row.titles)")
    #expect(coasted.row.subtitles["titles#900000"] == "No. 900000")
  }
}
