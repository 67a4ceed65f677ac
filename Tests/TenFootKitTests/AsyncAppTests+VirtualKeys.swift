import Logging
import Synchronization
import TenFootKit
import TestSupport
import Testing

/// Stable keys across processes: the docs' row of 1,000,000 titles on a headless
/// `tenfoot-screen`, this process's TenFootKit app supplying keyed content ("movie-N"), and the
/// real `tenfoot-remote`. A title added at the head of the row moves every key one index on;
/// focus follows its key, and `GROUP#=KEY` names the item wherever it is.
extension AsyncAppTests {
  /// How many titles were added at the head of the row: index `i` shows movie `i - shift`.
  final class HeadInserts: Sendable {
    private let count = Mutex(0)

    var shift: Int { count.withLock { $0 } }
    func insert() { count.withLock { $0 += 1 } }

    /// The keyed content of `indices` with `shift` titles added at the head ("New N").
    static func content(_ indices: some Sequence<Int>, shift: Int) -> [Int: VirtualContent] {
      Dictionary(
        uniqueKeysWithValues: indices.map { index in
          let movie = index - shift
          let content =
            movie >= 0
            ? VirtualContent(title: "Movie \(movie + 1)", key: "movie-\(movie)")
            : VirtualContent(title: "New \(-movie)", key: "new-\(-movie)")
          return (index, content)
        })
    }
  }

  @Test(
    "stable keys: the remote focuses titles#=movie-7, a title added at the head moves it to index 8 and focus follows"
  )
  func virtualKeysAcrossProcesses() async throws {
    let broker = try Broker()
    let (screen, placeholders) = try await Self.movieRowScreen(broker)
    defer { screen.kill() }
    let app = try Self.attachedApp(broker, label: "test.virtual-keys")
    defer { app.stop() }
    let inserts = HeadInserts()
    let loop = Task {
      for await update in app.events {
        guard case .itemsInView(let group, let range) = update.event else { continue }
        try await app.setVirtualContent(
          group: group, items: HeadInserts.content(range, shift: inserts.shift))
      }
    }
    defer { loop.cancel() }
    let supplied = try await Self.waitForRow(
      screen, from: placeholders, "the keyed titles drawn"
    ) { $0.titles["titles#0"] == "Movie 1" }

    // A key names its item, across the wire: the remote asks for it by key.
    let byKey = try await broker.remote(["focus", "titles#=movie-7"])
    #expect(byKey.status == 0, "\(byKey.errors)")
    #expect(byKey.output.last?.hasSuffix("focused titles#7") == true, "\(byKey.output)")
    let seven = try await Self.waitForRow(
      screen, from: supplied.index, "titles#7 focused as Movie 8"
    ) { $0.focused == "titles#7" && $0.titles["titles#7"] == "Movie 8" }

    // A new title at the head: every key moves one index on, and focus follows movie-7.
    inserts.insert()
    try await app.setVirtualContent(
      group: "titles", items: HeadInserts.content(0..<24, shift: inserts.shift))
    let moved = try await Self.waitForRow(
      screen, from: seven.index, "focus on titles#8, still Movie 8"
    ) { $0.focused == "titles#8" }
    #expect(moved.row.titles["titles#8"] == "Movie 8", "\(moved.row.titles)")
    #expect(moved.row.titles["titles#7"] == "Movie 7", "\(moved.row.titles)")

    // The session goes on from the new index, and the key names the moved item.
    let right = try await broker.remote(["press", "right"])
    #expect(right.output.last?.hasSuffix("focused titles#9") == true, "\(right.output)")
    let again = try await broker.remote(["focus", "titles#=movie-7"])
    #expect(again.output.last?.hasSuffix("focused titles#8") == true, "\(again.output)")
    _ = try await Self.waitForRow(screen, from: moved.index, "titles#8 focused again by key") {
      $0.focused == "titles#8" && $0.titles["titles#8"] == "Movie 8"
    }
  }
}
