import Foundation
import TestSupport
import Testing

/// The app model across real processes: the template package (examples/swift-app, built on
/// TenFootKit by path) in its own screen and attached to another, the inputs after an
/// activation waiting for the app, an open page surviving a broker crash, and the app role.
@Suite("Apps: the Swift template, reactions, restarts and the app role", .serialized)
struct AppTemplateTests {
  /// The template's binary (`scripts/test` builds it and sets `TENFOOT_APP_TEMPLATE`).
  static var template: String? { ProcessInfo.processInfo.environment["TENFOOT_APP_TEMPLATE"] }

  static func requireTemplate() throws -> String {
    try #require(
      template,
      "TENFOOT_APP_TEMPLATE is not set: build examples/swift-app (swift build --package-path examples/swift-app) and point it at the menu-app binary, as scripts/test does"
    )
  }

  /// The template running its own headless screen on `stack` (`binary`: the template's
  /// variant beside it, e.g. `menu-app-async`).
  static func templateScreen(_ stack: Stack, _ extra: [String] = [], binary: String? = nil)
    throws -> ChildProcess
  {
    var path = try requireTemplate()
    if let binary {
      path =
        URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(binary)
        .path
    }
    return try ChildProcess(
      path, ["--renderer", "headless", "--frames", "-"] + extra + stack.endpointArguments,
      environment: stack.environment)
  }

  @Test(
    "the template opens a page on select and returns on Menu; the remote prints the focus after the reaction",
    .enabled(if: template != nil), arguments: ["menu-app", "menu-app-async"])
  func templateOpensPage(binary: String) throws {
    let stack = try Stack(.ipc)
    let app = try Self.templateScreen(stack, binary: binary)
    let first = try app.waitForFrame("the template's menu") { $0.focused == "weather" }
    let opened = try stack.remote(["press", "down", "select"])
    #expect(opened.status == 0, "\(opened.errors)")
    #expect(opened.output.last?.hasSuffix("focused page-news") == true, "\(opened.output)")
    let page = try app.waitForFrame(from: first.index, "the News page") {
      $0.focused == "page-news"
    }
    let back = try stack.remote(["press", "menu"])
    #expect(back.output.last == "menu: back; focused news", "\(back.output)")
    let closed = try app.waitForFrame(from: page.index, "back on the menu") {
      $0.focused == "news" && $0.states["page-news"] == nil
    }
    #expect(closed.frame.states["weather"] == "unfocused")
  }

  @Test("press select right select opens the detail view and moves inside it, not behind it")
  func selectRightSelect() throws {
    let stack = try Stack(.ipc)
    let screen = try stack.screen([])  // The catalog app.
    _ = try screen.waitForFrame("first frame") { $0.focused == "upnext-0" }
    let pressed = try stack.remote(["press", "select", "right", "select"])
    #expect(pressed.status == 0, "\(pressed.errors)")
    #expect(pressed.output.count == 3, "\(pressed.output)")
    #expect(pressed.output.first?.hasSuffix("focused detail-play") == true, "\(pressed.output)")
    #expect(pressed.output.dropFirst().first?.hasSuffix("focused detail-favourite") == true)
    #expect(pressed.output.last?.contains("detail-favourite selected") == true, "\(pressed.output)")
    #expect(!pressed.output.joined().contains("double"), "\(pressed.output)")
  }

  @Test(
    "kill -9 of the broker with a page open: after the restart the page is still open",
    .enabled(if: template != nil), arguments: ["menu-app", "menu-app-async"])
  func pageSurvivesBrokerCrash(binary: String) throws {
    let stack = try Stack(.ipc)
    let app = try Self.templateScreen(stack, binary: binary)
    _ = try app.waitForFrame("the template's menu") { $0.focused == "weather" }
    _ = try stack.remote(["press", "select"])
    let page = try app.waitForFrame("the Weather page") { $0.focused == "page-weather" }
    try stack.restartBroker()
    // The app re-registers the layout it showed, its page and focus included.
    let restored = try app.waitForFrame(from: page.index, timeout: 15, "the page after restart") {
      $0.epoch != page.frame.epoch && $0.focused == "page-weather"
    }
    let back = try stack.remote(["press", "menu"])
    #expect(back.output.last == "menu: back; focused weather", "\(back.output)")
    _ = try app.waitForFrame(from: restored.index, "the menu again") {
      $0.focused == "weather" && $0.states["page-weather"] == nil
    }
  }

  /// A screen on a file's layout, then the template attached to it as its own process; returns
  /// them and the screen's frame showing the app's menu.
  static func attachedTemplate() throws -> (
    Stack, ChildProcess, ChildProcess, (index: Int, frame: Frame)
  ) {
    let stack = try Stack(.ipc)
    let layout = try stack.layoutFile(rows: 1, columns: 2)
    let screen = try stack.screen(["--layout", layout])
    let grid = try screen.waitForFrame("the file's layout") { $0.focused == "r0c0" }
    let app = try ChildProcess(
      try requireTemplate(), ["--attach"] + stack.endpointArguments,
      environment: stack.environment)
    do {
      let joined = try screen.waitForFrame(from: grid.index, "the app's menu on the screen") {
        $0.focused == "weather"
      }
      return (stack, screen, app, joined)
    } catch {
      app.kill()
      throw error
    }
  }

  @Test(
    "the same app attached to a screen another process shows, as its own process",
    .enabled(if: template != nil))
  func attachedApp() throws {
    let (stack, screen, app, joined) = try Self.attachedTemplate()
    defer { app.kill() }
    let opened = try stack.remote(["press", "select"])
    #expect(opened.output.last?.hasSuffix("focused page-weather") == true, "\(opened.output)")
    _ = try screen.waitForFrame(from: joined.index, "the page on the screen") {
      $0.focused == "page-weather"
    }
  }

  @Test(
    "kill -9 of the broker under an app in its own process: the screen puts the page back, the app attaches again and still reacts",
    .enabled(if: template != nil))
  func attachedAppSurvivesBrokerCrash() throws {
    let (stack, screen, app, joined) = try Self.attachedTemplate()
    defer { app.kill() }
    // The screen learns from its heartbeat's reply that an app is attached, so that it can
    // say so when it registers again.
    _ = try screen.waitForErrorLine("the screen knows of the app") {
      $0.contains("an app reacts to this screen")
    }
    _ = try stack.remote(["press", "down", "select"])
    let page = try screen.waitForFrame(from: joined.index, "the News page") {
      $0.focused == "page-news"
    }
    try stack.restartBroker()
    let restored = try screen.waitForFrame(from: page.index, timeout: 15, "the page after restart")
    {
      $0.epoch != page.frame.epoch && $0.focused == "page-news"
    }
    // Menu is the app's to answer: only an app that attached to the new broker closes the page
    // and puts focus back on the item that opened it.
    let back = try stack.remote(["press", "menu"])
    #expect(
      back.output.last == "menu: back; focused news",
      "\(back.output) app: \(app.errors.joined(separator: "\n"))")
    _ = try screen.waitForFrame(from: restored.index, "the menu again") {
      $0.focused == "news" && $0.states["page-news"] == nil
    }
    #expect(app.isRunning, "the app exited: \(app.errors.suffix(5))")
  }

  @Test(
    "an app key bound to another screen or with a remote's role is refused, with the way to bind it",
    .enabled(if: template != nil))
  func appRoleEnforced() throws {
    let stack = try SecureStack()
    let screen = try stack.screen()
    _ = try screen.waitForFrame(timeout: 15, "the screen's first frame") { $0.focused == "r0c0" }
    let template = try Self.requireTemplate()
    func app(_ name: String, screens: [String], role: String = "app") throws -> ChildProcess {
      let directory = stack.directory.path + "/" + name
      let key = try ChildProcess(template, ["--print-key", "--state-dir", directory])
      #expect(try key.waitForExit(timeout: 20) == 0)
      _ = try SecureStack.run(
        "tenfoot-broker",
        [
          "remotes", "add", "--data-dir", stack.dataDirectory, "--name", name, "--role", role,
          "--key", try #require(key.output.first),
        ] + screens.flatMap { ["--screen", $0] })
      return try ChildProcess(
        template,
        ["--attach", "--state-dir", directory, "--broker-key", try stack.brokerKey()]
          + stack.endpointArguments, environment: stack.environment)
    }
    for (name, screens, role) in [("elsewhere", ["other"], "app"), ("remote", [], "remote")] {
      let refused = try app(name, screens: screens, role: role)
      #expect(try refused.waitForExit(timeout: 20) == 1, "\(name): \(refused.errors)")
      #expect(refused.errors.joined().contains("--role app --screen"), "\(refused.errors)")
    }
    let bound = try app("menu", screens: ["main"])
    defer { bound.kill() }
    _ = try screen.waitForFrame(timeout: 15, "the bound app's menu on the screen") {
      $0.focused == "weather"
    }
  }
}
