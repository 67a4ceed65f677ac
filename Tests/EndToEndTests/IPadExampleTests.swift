import Foundation
import TestSupport
import Testing

/// `examples/ipad.json` (a sidebar with a search field and lists beside a photo grid, in
/// iPadOS navigation) through the built `tenfoot-broker simulate` and `explain`.
@Suite("The iPadOS example layout, through the built broker")
struct IPadExampleTests {
  let ipad = repositoryRoot() + "/examples/ipad.json"

  @Test("arrows stay in the list and the grid, Tab and Shift-Tab move between them (snapshot)")
  func simulate() throws {
    let process = try ChildProcess(
      TestEnvironment.binary("tenfoot-broker"),
      [
        "simulate", "--layout", ipad, "--input", "down", "--input", "right", "--input", "tab",
        "--input", "right", "--input", "left", "--input", "left", "--input", "shift-tab",
        "--input", "up", "--input", "up", "--input", "shift-tab",
      ])
    let status = try process.waitForExit(timeout: 20)
    #expect(status == 0, "\(process.errors)")
    let mismatch = TextSnapshot.mismatch(
      process.output.joined(separator: "\n"), named: "simulate-ipad")
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }

  @Test("explain names the navigation model, the confining group and the halo's radius")
  func explain() throws {
    let process = try ChildProcess(
      TestEnvironment.binary("tenfoot-broker"),
      ["explain", "--layout", ipad, "--item", "photo-0-0"])
    #expect(try process.waitForExit(timeout: 20) == 0, "\(process.errors)")
    #expect(
      process.output.contains(
        #"navigation ipados (arrows stay in group "photos") · search tvos · focus effect halo (default), corner radius 16"#
      ), "\(process.output)")
    // From the initial focus in the sidebar, arrows never reach the grid.
    #expect(process.output.contains { $0.hasPrefix("not reachable from list-0 with arrows") })
  }
}
