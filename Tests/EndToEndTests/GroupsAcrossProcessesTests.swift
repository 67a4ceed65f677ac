import Foundation
import TestSupport
import Testing

/// Groups, Tab, programmatic focus and the live debugger with three real processes.
@Suite("Groups, Tab and focus requests across processes", .serialized)
struct GroupsAcrossProcessesTests {
  @Test("Tab, a group focus request, a refused request and the live debugger")
  func groupsEndToEnd() throws {
    let stack = try Stack(.ipc)
    let home = repositoryRoot() + "/examples/home.json"
    let screen = try stack.screen(["--layout", home])
    let first = try screen.waitForFrame("first frame") { $0.focused == "upnext-0" }

    let presses = try stack.remote(["press", "right", "tab", "shift-tab"])
    #expect(presses.status == 0, "\(presses.errors)")
    #expect(
      presses.output == [
        "right: focus upnext-0 → upnext-1 (right); focused upnext-1",
        "tab: focus upnext-1 → trending-0 (next); focused trending-0",
        // Back to the row's previously focused poster (priority 1000).
        "shift-tab: focus trending-0 → upnext-1 (previous); focused upnext-1",
      ])
    let tabbed = try screen.waitForFrame(from: first.index, "upnext-1 focused after Tab") {
      $0.focused == "upnext-1" && $0.event?.contains("previous") == true
    }

    let menu = try stack.remote(["focus", "--group", "menu"])
    #expect(menu.status == 0, "\(menu.errors)")
    #expect(
      menu.output == [
        "focus: focus upnext-1 → menu-home (programmatic); menu-home selected; focused menu-home"
      ])
    _ = try screen.waitForFrame(from: tabbed.index, "menu-home focused") {
      $0.focused == "menu-home"
    }

    let refused = try stack.remote(["focus", "new-2"])
    #expect(refused.status == 1)
    #expect(
      refused.errors.joined().contains(#"focus_unavailable: item "new-2" is unavailable"#),
      "\(refused.errors)")

    let loop = try stack.remote(["debug", "--tab-loop"])
    #expect(loop.status == 0, "\(loop.errors)")
    #expect(
      loop.output == [
        "1. menu → menu-home", "2. upnext → upnext-1", "3. trending → trending-0",
        "4. new → new-0",
      ])
    let dryRun = try stack.remote(["debug", "--dry-run", "down"])
    #expect(dryRun.output.prefix(2) == ["focused: upnext-1", "moved: true"])
  }
}
