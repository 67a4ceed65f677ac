import Foundation
import TenFootProtocol
import TestSupport

/// One TenFoot page path of the page benchmark, set up: a broker, a web screen (a developer's
/// two-button page with `tenfoot.js`, or the built-in page of a 1×2 grid), Chromium on it, a
/// remote connection in the bench's own process and, if asked for, a long-lived
/// `tenfoot-remote script -` on the same screen. Presses alternate right and left, whichever
/// remote sends them (`toggle`).
final class PageScreen: @unchecked Sendable {
  // @unchecked Sendable is sound: its properties are constants, and the benchmark presses from
  // one task at a time.
  /// A developer's page (true) or the built-in one.
  let app: Bool
  /// Chromium on the screen's page.
  let browser: BenchBrowser
  /// The item focused first and the one right of it, and which the next press focuses.
  let toggle: PageToggle
  /// The remote connection in the bench's process (the floor's kind of sender).
  let remote: InProcessRemote
  /// `tenfoot-remote script -`, pressed through its standard input (nil: not started).
  let scripted: ScriptedRemote?
  private let directory: TemporaryDirectory
  private let broker: BenchProcesses.Server
  private let screen: ChildProcess

  /// A script the app page runs before `tenfoot.js`: it stamps each WebSocket message's
  /// arrival (`globalThis.arrival`: [epoch ms, the message]) before the module's listener runs.
  static let arrivalHook = """
    globalThis.arrival = null;
    globalThis.WebSocket = class extends WebSocket {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (e) => {
          globalThis.arrival = [performance.timeOrigin + performance.now(), e.data];
        });
      }
    };
    """

  /// The processes started and the page loaded (not yet ready: see `ready(_:)`). With `trace`
  /// the screen stamps its frames (`TENFOOT_TRACE_PAGE`, the app page only); with `scripted` a
  /// `tenfoot-remote script -` is started beside the bench's own remote.
  init(app: Bool, trace: Bool, scripted: Bool) throws {
    self.app = app
    directory = try TemporaryDirectory()
    broker = try BenchProcesses.broker(.ipc, in: directory)
    let endpoints = ["--control", broker.control, "--state", broker.state, "--insecure"]
    let screenArguments: [String]
    if app {
      _ = try directory.write(
        "index.html",
        """
        <!doctype html><html><head><meta charset="utf-8"><script src="hook.js"></script>
        <script type="module" src="page.js"></script></head>
        <body><button data-focus-id="x0">A</button> <button data-focus-id="x1">B</button></body></html>
        """)
      _ = try directory.write("hook.js", Self.arrivalHook)
      _ = try directory.write("page.js", "import '/tenfoot.js';\n" + PageBench.stateObserver)
      screenArguments = ["--app", directory.path]
    } else {
      let grid = """
        {"items":[{"id":"r0c0","title":"A","frame":[100,100,300,200]},
        {"id":"r0c1","title":"B","frame":[500,100,300,200]}]}
        """
      screenArguments = ["--layout", try directory.write("grid.json", grid)]
    }
    screen = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      screenArguments + [
        "--renderer", "web", "--listen", "127.0.0.1:0", "--state-dir", directory.path + "/state",
        "--log-level", "warning",
      ] + endpoints, environment: trace && app ? ["TENFOOT_TRACE_PAGE": "1"] : [:])
    let line = try screen.waitForLine("the web screen's URL") {
      $0.hasPrefix("tenfoot-screen web http://")
    }
    let url = String(line.line.dropFirst("tenfoot-screen web ".count))
    browser = try BenchBrowser(url: url, profile: directory.path + "/chromium")
    remote = try InProcessRemote(control: broker.control, screen: "main")
    self.scripted = scripted ? try ScriptedRemote(arguments: endpoints) : nil
    toggle = PageToggle(ids: app ? ("x0", "x1") : ("r0c0", "r0c1"))
  }

  deinit { stop() }

  /// Ends Chromium, the remote process, the screen and the broker (idempotent). Called by the
  /// benchmark when it is done, not left to `deinit`: the process may exit before the last
  /// reference goes, and these processes would outlive it.
  func stop() {
    browser.stop()
    scripted?.stop()
    screen.kill()
    broker.stop()
  }

  /// Waits until the page shows the first item focused and watches it from then on.
  func ready(_ devtools: DevTools) async throws {
    if app {
      try await devtools.waitFor(
        "x0 focused",
        "document.querySelector('[data-focus-id=x0]')?.getAttribute('data-focus-state') === 'focused'"
      )
    } else {
      try await devtools.waitFor(
        "r0c0 focused", "document.querySelector('.item.focused')?.dataset.id === 'r0c0'")
      _ = try await devtools.evaluate(
        PageBench.observer(attribute: "class", focused: "el.classList.contains('focused')")
          + "true")
    }
    try await PageBench.skipMarks(devtools)
  }
}

/// Which item a path's next press focuses: the second and the first in turn (right, then left
/// back), counted over every remote that presses the path's screen.
final class PageToggle: @unchecked Sendable {
  // @unchecked Sendable is sound: the benchmark presses from one task at a time.
  /// The item focused first and the one right of it.
  let ids: (first: String, second: String)
  /// Presses finished so far.
  private(set) var presses = 0

  init(ids: (first: String, second: String)) { self.ids = ids }

  /// The item the next press focuses.
  var target: String { presses % 2 == 0 ? ids.second : ids.first }
  /// The next press's key.
  var key: Tenfoot_V1_Key { presses % 2 == 0 ? .right : .left }
  /// The press was seen: the next one goes the other way.
  func next() { presses += 1 }
}
