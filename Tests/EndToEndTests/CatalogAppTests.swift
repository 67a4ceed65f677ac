import Foundation
import TestSupport
import Testing

/// The catalog app on the screen: detail view, Back restoring focus, Home, search, favourites.
@Suite("Catalog app across processes", .serialized)
struct CatalogAppTests {
  @Test("Back returns focus to the exact poster that opened the detail view, scrolled as it was")
  func backRestoresFocus() throws {
    let stack = try Stack(.ipc)
    let screen = try stack.screen([])  // no --layout: the catalog app
    let first = try screen.waitForFrame("first frame") { $0.focused == "upnext-0" }
    // Deep into the second row: the row scrolls.
    // (trending-1 is "coming soon": focus skips it.)
    let walk = try stack.remote(["press", "down", "right", "right", "right", "right", "right"])
    #expect(walk.status == 0, "\(walk.errors)")
    #expect(
      walk.output.last
        == "right: focus trending-5 → trending-6 (right); scrolled row-1 to 580.0, 0.0; focused trending-6"
    )
    let before = try screen.waitForFrame(from: first.index, "trending-6") {
      $0.focused == "trending-6"
    }
    #expect(before.frame.line.contains(#""row-1":["#), "row-1 scrolled: \(before.frame.line)")

    _ = try stack.remote(["press", "select"])
    let detail = try screen.waitForFrame(from: before.index, "the detail view") {
      $0.focused == "detail-play"
    }
    // The trap: arrows cannot leave the detail view.
    let trapped = try stack.remote(["press", "up", "up", "left"])
    #expect(trapped.output.last?.hasSuffix("focused detail-play") == true, "\(trapped.output)")

    _ = try stack.remote(["press", "down", "right"])
    _ = try stack.remote(["press", "menu"])
    let back = try screen.waitForFrame(from: detail.index, "focus back on trending-6") {
      $0.focused == "trending-6" && $0.states["detail-play"] == nil
    }
    #expect(back.frame.states["trending-6"] == "focused")
    // One step: focus never passed through any other item on the way back.
    let between = screen.frames.dropFirst(detail.index).prefix(back.index - detail.index + 1)
    #expect(
      between.allSatisfy { $0.focused == "trending-6" || $0.focused?.hasPrefix("detail") == true },
      "\(between.map { $0.focused ?? "none" })")
    // Same scroll offsets as before the detail view opened.
    #expect(Self.scroll(back.frame.line) == Self.scroll(before.frame.line))
  }

  @Test("Home focuses the menu bar; typing goes into the search field; favourites persist")
  func homeSearchFavourites() throws {
    let stack = try Stack(.ipc)
    let screen = try stack.screen([])
    let first = try screen.waitForFrame("first frame") { $0.focused == "upnext-0" }

    _ = try stack.remote(["press", "right", "select"])
    let opened = try screen.waitForFrame(from: first.index, "detail open") {
      $0.focused == "detail-play"
    }
    let favourite = try stack.remote(["press", "right", "select"])
    #expect(favourite.output.last?.contains("detail-favourite selected") == true, "\(favourite)")
    _ = try stack.remote(["press", "menu"])
    let closed = try screen.waitForFrame(from: opened.index, "back on upnext-1") {
      $0.focused == "upnext-1" && $0.states["detail-favourite"] == nil
    }
    _ = try stack.remote(["press", "select"])
    let reopened = try screen.waitForFrame(from: closed.index, "detail reopened") {
      $0.focused == "detail-play"
    }
    #expect(reopened.frame.states["detail-favourite"] == "selected")

    _ = try stack.remote(["press", "home"])
    let home = try screen.waitForFrame(from: reopened.index, "the menu bar") {
      $0.focused == "menu-home"
    }
    #expect(home.frame.states["detail-play"] == nil)

    let typed = try stack.remote(["focus", "search"])
    #expect(typed.status == 0, "\(typed.errors)")
    _ = try stack.remote(["type", "star"])
    _ = try screen.waitForFrame(from: home.index, "star typed") { $0.text["search"] == "star" }
  }

  /// The "scroll" object of a frame line, as text (or "" without one).
  static func scroll(_ line: String) -> String {
    guard let data = line.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let scroll = object["scroll"],
      let text = try? JSONSerialization.data(withJSONObject: scroll, options: .sortedKeys)
    else { return "" }
    return String(decoding: text, as: UTF8.self)
  }
}

/// A screen that dies: its session outlives the grace period only while heartbeats come.
@Suite("Dead screens across processes", .serialized)
struct DeadScreenProcessTests {
  @Test("heartbeats keep a session past the grace period; after kill -9 input gets screen_gone")
  func killedScreen() throws {
    let stack = try Stack(.ipc, brokerArguments: ["--screen-grace", "1"])
    let screen = try stack.screen(["--layout", try stack.layoutFile(rows: 1, columns: 9)])
    _ = try screen.waitForFrame("first frame") { $0.focused == "r0c0" }
    // Two seconds of holding an arrow: twice the grace period, kept alive by heartbeats.
    let held = try stack.remote(["hold", "right", "--for", "2s"])
    #expect(held.status == 0, "\(held.errors)")
    #expect(held.output.first?.hasSuffix("focused r0c8") == true, "\(held.output)")

    // A long-lived remote, connected while the screen is alive.
    let input = Pipe()
    let remote = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"), ["script", "-"] + stack.endpointArguments,
      environment: stack.environment, stdin: input.fileHandleForReading)
    input.fileHandleForWriting.write(Data("left\n".utf8))
    try remote.waitForLine("the live remote's press") { $0.hasPrefix("left:") }

    screen.kill()
    try stack.broker.waitForErrorLine(timeout: 10, "the broker dropping the session") {
      $0.contains("screen session dropped")
    }
    input.fileHandleForWriting.write(Data("left\n".utf8))
    #expect(try remote.waitForExit(timeout: 10) != 0)
    #expect(remote.errors.joined().contains("screen_gone"), "\(remote.errors)")
    // A remote starting now is told there is no such screen.
    let refused = try stack.remote(["press", "left", "--screen", "main"])
    #expect(refused.status != 0)
    #expect(refused.errors.joined().contains("no screen \"main\""), "\(refused.errors)")
  }
}
