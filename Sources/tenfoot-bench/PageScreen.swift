import Foundation
import TestSupport

/// One TenFoot page path of the page benchmark, set up: a broker, a web screen (a developer's
/// two-button page with `tenfoot.js`, or the built-in page of a 1×2 grid), Chromium on it and a
/// long-lived `tenfoot-remote script -` whose presses alternate right and left.
final class PageScreen: @unchecked Sendable {
  // @unchecked Sendable is sound: its properties are constants, and the benchmark presses from
  // one task at a time.
  /// A developer's page (true) or the built-in one.
  let app: Bool
  /// Chromium on the screen's page.
  let browser: BenchBrowser
  /// The item focused first and the one right of it.
  let ids: (first: String, second: String)
  private let directory: TemporaryDirectory
  private let broker: BenchProcesses.Server
  private let screen: ChildProcess
  private let remote: ChildProcess
  private let writer: FileHandle

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
  /// the screen stamps its frames (`TENFOOT_TRACE_PAGE`, the app page only).
  init(app: Bool, trace: Bool) throws {
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
    let pipe = Pipe()
    remote = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"), ["script", "-"] + endpoints,
      stdin: pipe.fileHandleForReading)
    writer = pipe.fileHandleForWriting
    ids = app ? ("x0", "x1") : ("r0c0", "r0c1")
  }

  deinit {
    remote.kill()
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

  /// Press `step` (0, 1, …): right to the second item on even steps, left back on odd ones.
  func press(_ step: Int) {
    writer.write(Data((step % 2 == 0 ? "right\n" : "left\n").utf8))
  }
}
