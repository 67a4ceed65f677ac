import Foundation
import Synchronization
import TestSupport

/// The page path: a remote's press until a page's element carries
/// `data-focus-state="focused"` in headless Chromium (the time a `MutationObserver` saw it,
/// read through DevTools), for a developer's page (`tenfoot-screen --app` with `tenfoot.js`),
/// beside the built-in web screen (its card's `focused` class) and the WebSocket floor
/// (`PageFloor`: the same frame's bytes sent through a bare relay to a page that sets the same
/// attribute). Presses come from a long-lived `tenfoot-remote script -`, alternating right
/// and left between two items; each is timed from just before its line is written.
enum PageBench {
  /// Records, in the page, when an element became focused: `marks` of [id, epoch ms].
  static func observer(attribute: String, focused: String) -> String {
    """
    globalThis.marks = [];
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target;
        if (\(focused)) marks.push([el.dataset.focusId || el.dataset.id || el.id,
          performance.timeOrigin + performance.now()]);
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['\(attribute)'] });
    """
  }

  static let stateObserver = observer(
    attribute: "data-focus-state", focused: "el.getAttribute('data-focus-state') === 'focused'")

  /// Nanoseconds from now until the page marks `id` focused, after `press` ran.
  static func time(_ devtools: DevTools, id: String, press: () async throws -> Void)
    async throws -> UInt64
  {
    let start = Date().timeIntervalSince1970 * 1000
    try await press()
    let seen = try await devtools.evaluate(
      """
      new Promise((resolve) => {
        const begun = Date.now();
        (function look() {
          const mark = marks.find((m) => m[0] === '\(id)' && m[1] >= \(start));
          if (mark) resolve(mark[1]); else if (Date.now() - begun > 5000) resolve(null);
          else setTimeout(look, 1);
        })();
      })
      """)
    guard let at = seen as? Double else {
      throw BenchError("\(id) was not marked focused within 5 s")
    }
    return UInt64(max(0, (at - start) * 1_000_000))
  }

  static func run(samples: Int) throws -> PageResult {
    let app = try measure(samples: samples, app: true)
    let builtIn = try measure(samples: samples, app: false)
    let floor = try PageFloor.run(samples: samples)
    return PageResult(
      samples: samples, app: PageFigures(app), builtIn: PageFigures(builtIn),
      floor: PageFigures(floor))
  }

  /// A broker, a web screen (a developer's two-button page, or the built-in page of a 1×2
  /// grid), Chromium on it and a remote: `samples` presses timed.
  private static func measure(samples: Int, app: Bool) throws -> [UInt64] {
    let directory = try TemporaryDirectory()
    let broker = try BenchProcesses.broker(.ipc, in: directory)
    defer { broker.stop() }
    let endpoints = ["--control", broker.control, "--state", broker.state, "--insecure"]
    let screenArguments: [String]
    if app {
      _ = try directory.write(
        "index.html",
        """
        <!doctype html><html><head><meta charset="utf-8"><script type="module" src="page.js"></script>
        </head><body><button data-focus-id="x0">A</button> <button data-focus-id="x1">B</button></body></html>
        """)
      _ = try directory.write("page.js", "import '/tenfoot.js';\n" + stateObserver)
      screenArguments = ["--app", directory.path]
    } else {
      let grid = """
        {"items":[{"id":"r0c0","title":"A","frame":[100,100,300,200]},
        {"id":"r0c1","title":"B","frame":[500,100,300,200]}]}
        """
      screenArguments = ["--layout", try directory.write("grid.json", grid)]
    }
    let screen = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      screenArguments + [
        "--renderer", "web", "--listen", "127.0.0.1:0", "--state-dir", directory.path + "/state",
        "--log-level", "warning",
      ] + endpoints)
    defer { screen.kill() }
    let line = try screen.waitForLine("the web screen's URL") {
      $0.hasPrefix("tenfoot-screen web http://")
    }
    let url = String(line.line.dropFirst("tenfoot-screen web ".count))
    let browser = try BenchBrowser(url: url, profile: directory.path + "/chromium")
    let pipe = Pipe()
    let remote = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"), ["script", "-"] + endpoints,
      stdin: pipe.fileHandleForReading)
    defer { remote.kill() }
    let (first, second) = app ? ("x0", "x1") : ("r0c0", "r0c1")
    let writer = pipe.fileHandleForWriting
    return try browser.withPage { devtools in
      if app {
        try await devtools.waitFor(
          "x0 focused",
          "document.querySelector('[data-focus-id=x0]')?.getAttribute('data-focus-state') === 'focused'"
        )
      } else {
        try await devtools.waitFor(
          "r0c0 focused", "document.querySelector('.item.focused')?.dataset.id === 'r0c0'")
        _ = try await devtools.evaluate(
          observer(attribute: "class", focused: "el.classList.contains('focused')") + "true")
      }
      var times: [UInt64] = []
      for index in 0..<samples {
        let (key, target) = index % 2 == 0 ? ("right", second) : ("left", first)
        times.append(
          try await time(devtools, id: target) { writer.write(Data("\(key)\n".utf8)) })
      }
      return times
    }
  }
}

/// p50, p95 and p99 in microseconds.
struct PageFigures: Codable {
  var p50Microseconds: Double
  var p95Microseconds: Double
  var p99Microseconds: Double

  init(_ nanoseconds: [UInt64]) {
    let sorted = nanoseconds.sorted()
    (p50Microseconds, p95Microseconds, p99Microseconds) = (
      percentile(sorted, 0.5), percentile(sorted, 0.95), percentile(sorted, 0.99)
    )
  }
}

/// The page benchmark's figures.
struct PageResult: Codable {
  var samples: Int
  /// A developer's page with `tenfoot.js`.
  var app: PageFigures
  /// The built-in web screen.
  var builtIn: PageFigures
  /// The bare WebSocket relay.
  var floor: PageFigures
}
