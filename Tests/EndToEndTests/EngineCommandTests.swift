import Foundation
import TestSupport
import Testing

/// `tenfoot-broker simulate` and `explain`, run as the built binary on layout files.
@Suite("Engine commands: simulate and explain")
struct EngineCommandTests {
  let home = repositoryRoot() + "/examples/home.json"

  /// Runs `tenfoot-broker` with `arguments`; returns its exit status, stdout and stderr lines.
  func broker(_ arguments: [String]) throws -> (Int32, [String], [String]) {
    let process = try ChildProcess(TestEnvironment.binary("tenfoot-broker"), arguments)
    let status = try process.waitForExit(timeout: 20)
    return (status, process.output, process.errors)
  }

  @Test("simulate --json prints one object per input with focused, moved and heading")
  func simulateJSON() throws {
    let (status, output, errors) = try broker([
      "simulate", "--layout", home, "--focus", "new-1", "--input", "right", "--input", "right",
      "--input", "down", "--json",
    ])
    #expect(status == 0, "\(errors)")
    #expect(
      output == [
        #"{"effects":["focus new-1 → new-3 (right)"],"focused":"new-3","heading":"right","input":"right","moved":true}"#,
        #"{"effects":["focus new-3 → new-4 (right)","scrolled new to 260.0, 0.0"],"focused":"new-4","heading":"right","input":"right","moved":true}"#,
        #"{"effects":["bump down: no item that way"],"focused":"new-4","heading":null,"input":"down","moved":false}"#,
      ])
  }

  @Test("simulate: a trip through guides, Tab, memory and selection (text snapshot)")
  func simulateText() throws {
    let (status, output, errors) = try broker([
      "simulate", "--layout", home, "--input", "right", "--input", "right", "--input", "down",
      "--input", "up", "--input", "up", "--input", "right", "--input", "tab", "--input",
      "shift-tab", "--input", "down", "--input", "select",
    ])
    #expect(status == 0, "\(errors)")
    let mismatch = TextSnapshot.mismatch(output.joined(separator: "\n"), named: "simulate-home")
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }

  @Test("simulate --search android changes the model; nothing focusable gives null")
  func simulateAndroidAndNull() throws {
    let directory = try TemporaryDirectory()
    // "b" is down-right of "a" and outside its beam: tvOS bumps, Android moves.
    let layout = try directory.write(
      "l.json",
      #"{"items": [{"id": "a", "frame": [0, 0, 100, 100]}, {"id": "b", "frame": [300, 300, 100, 100]}]}"#
    )
    let tvos = try broker(["simulate", "--layout", layout, "--input", "right", "--json"])
    #expect(
      tvos.1.first?.contains(#""focused":"a","heading":null,"input":"right","moved":false"#)
        == true, "\(tvos)")
    let android = try broker([
      "simulate", "--layout", layout, "--input", "right", "--search", "android", "--json",
    ])
    #expect(android.1.first?.contains(#""focused":"b","heading":"right""#) == true, "\(android)")

    let empty = try directory.write(
      "e.json", #"{"items": [{"id": "a", "frame": [0, 0, 100, 100], "available": false}]}"#)
    let none = try broker(["simulate", "--layout", empty, "--input", "tab", "--json"])
    #expect(
      none.1 == [
        #"{"effects":["bump next: no item that way"],"focused":null,"heading":null,"input":"tab","moved":false}"#
      ], "\(none)")
  }

  @Test("simulate refuses bad input names, unknown --focus and invalid layouts, clearly")
  func simulateErrors() throws {
    let (badInput, _, inputErrors) = try broker([
      "simulate", "--layout", home, "--input", "sideways",
    ])
    #expect(badInput != 0)
    #expect(inputErrors.joined().contains("sideways"), "\(inputErrors)")

    let (badFocus, _, focusErrors) = try broker([
      "simulate", "--layout", home, "--focus", "new-2", "--input", "up",
    ])
    #expect(badFocus == 1)
    #expect(focusErrors.joined().contains("new-2\" is unavailable"), "\(focusErrors)")

    let directory = try TemporaryDirectory()
    let cyclic = try directory.write(
      "c.json",
      #"{"items": [{"id": "a", "frame": [0, 0, 1, 1]}], "guides": [{"id": "g1", "frame": [0, 0, 1, 1], "destinations": ["g2"]}, {"id": "g2", "frame": [0, 0, 1, 1], "destinations": ["g1"]}]}"#
    )
    let (badLayout, _, layoutErrors) = try broker([
      "simulate", "--layout", cyclic, "--input", "up",
    ])
    #expect(badLayout == 1)
    #expect(layoutErrors.joined().contains("cyclic guides: g1 → g2 → g1"), "\(layoutErrors)")
  }

  @Test("explain --item says why an item can or cannot take focus")
  func explainItem() throws {
    let unavailable = try broker(["explain", "--layout", home, "--item", "new-2"])
    #expect(unavailable.0 == 0)
    #expect(unavailable.1.first == #"new-2 cannot take focus: item "new-2" is unavailable"#)

    let reachable = try broker(["explain", "--layout", home, "--item", "trending-2", "--json"])
    #expect(
      reachable.1 == [
        #"{"canFocus":true,"focused":"upnext-0","item":"trending-2","reasons":["trending-2 can take focus","groups: trending < rows","priority: ignored (0)","navigation tvos · search tvos · focus effect lift (default)","pointer: hit region [904, 474, 412 × 272] (frame + 16 margin) · effect lift (automatic)","Tab stop 3 of 4","reachable from upnext-0 with arrows: down, right, right"]}"#
      ], "\(reachable)")

    // An id the layout does not hold: said on standard error, exit 1, no usage text.
    let unknown = try broker(["explain", "--layout", home, "--item", "rows"])
    #expect(unknown.0 == 1 && unknown.1.isEmpty)
    #expect(
      unknown.2 == [#"Error: no item "rows" in this layout; "rows" is a group; explain its items"#],
      "\(unknown.2)")
    let nope = try broker(["explain", "--layout", home, "--item", "nope"])
    #expect(nope.0 == 1 && nope.2 == [#"Error: no item "nope" in this layout"#], "\(nope)")
  }

  @Test("explain --tab-loop and --tree print the loop and the groups")
  func explainLoopAndTree() throws {
    let loop = try broker(["explain", "--layout", home, "--tab-loop"])
    #expect(
      loop.1 == [
        "1. menu → menu-home", "2. upnext → upnext-0", "3. trending → trending-0",
        "4. new → new-0",
      ])
    let tree = try broker(["explain", "--layout", home, "--tree"])
    #expect(tree.1.count == 5)
    #expect(
      tree.1.first
        == "menu: 5 item(s), primary menu-home [selection follows focus, prefers menu-home]")
    let neither = try broker(["explain", "--layout", home])
    #expect(neither.0 != 0)
    #expect(neither.2.joined().contains("exactly one of"))
  }
}
