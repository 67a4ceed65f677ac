import Foundation
import Synchronization
import TestSupport

/// The page path: a remote's press until a page's element carries
/// `data-focus-state="focused"` in headless Chromium (the time a `MutationObserver` saw it,
/// read through DevTools), for a developer's page (`tenfoot-screen --app` with `tenfoot.js`),
/// beside the built-in web screen (its card's `focused` class) and the WebSocket floor
/// (`PageFloor`: the same frame's bytes sent through a bare relay to a page that sets the same
/// attribute).
///
/// The TenFoot screens are pressed from a remote connection in the bench's own process
/// (`InProcessRemote`), as the floor's frames are sent from it, so the TenFoot paths and the
/// floor start from the same kind of sender; the developer's page is also pressed through a
/// `tenfoot-remote script -` process's standard input (`ScriptedRemote`), its own figure: what
/// a scripted remote adds.
///
/// The paths are set up side by side and timed interleaved, one press each per round (which
/// goes first rotates), so all of them see the same machine: load from other work moves them
/// together and their ratios hold. Each press is timed from just before it is sent (wall clock,
/// the clock the page's marks are in) until the page's mark; the wait for its mark is armed in
/// the page before that, so the page does nothing for DevTools while the frame is on its way,
/// and its release is sent only after the mark, untimed.
enum PageBench {
  /// Records, in the page, when an element became focused: `marks` of [id, epoch ms, the
  /// arrival stamp of the last WebSocket message (`globalThis.arrival`, if the page keeps
  /// one)]. `nextMark(id)` resolves with the first mark of `id` after the last one it
  /// resolved with: [epoch ms, arrival ms or null, the message's `trace` or null].
  static func observer(attribute: String, focused: String) -> String {
    """
    globalThis.marks = [];
    globalThis.reported = 0;
    let waiter = null;
    const report = (i) => {
      reported = i + 1;
      const [, at, arrival] = marks[i];
      let trace = null;
      if (arrival && typeof arrival[1] === 'string' && arrival[1].includes('"trace"')) {
        trace = JSON.parse(arrival[1]).trace;
      }
      return [at, arrival ? arrival[0] : null, trace];
    };
    globalThis.nextMark = (id) => new Promise((resolve) => {
      for (let i = reported; i < marks.length; i++) {
        if (marks[i][0] === id) { resolve(report(i)); return; }
      }
      const timer = setTimeout(() => { waiter = null; resolve(null); }, 5000);
      waiter = { id, done: (i) => { clearTimeout(timer); waiter = null; resolve(report(i)); } };
    });
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target;
        if (!(\(focused))) continue;
        const id = el.dataset.focusId || el.dataset.id || el.id;
        marks.push([id, performance.timeOrigin + performance.now(), globalThis.arrival || null]);
        if (waiter && waiter.id === id) waiter.done(marks.length - 1);
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['\(attribute)'] });
    """
  }

  static let stateObserver = observer(
    attribute: "data-focus-state", focused: "el.getAttribute('data-focus-state') === 'focused'")

  /// Forgets the marks so far (the page's start): the next press's mark is the first one.
  static func skipMarks(_ devtools: DevTools) async throws {
    _ = try await devtools.evaluate("reported = marks.length; true")
  }

  static func run(samples: Int) throws -> PageResult {
    let app = try PageScreen(app: true, trace: true, scripted: true)
    defer { app.stop() }
    let builtIn = try PageScreen(app: false, trace: false, scripted: false)
    defer { builtIn.stop() }
    let floor = try PageFloor()
    defer { floor.stop() }
    let measured: Unchecked<[[PageSample]]> = try blocking {
      try await app.browser.session { appTools in
        try await builtIn.browser.session { builtInTools in
          try await floor.browser.session { floorTools in
            try await floor.withSender { floorPress in
              try await app.ready(appTools.value)
              try await builtIn.ready(builtInTools.value)
              try await floor.ready(floorTools.value)
              let floorToggle = PageToggle(ids: ("x0", "x1"))
              let paths = [
                PagePath(appTools.value, app.toggle, remote: app.remote),
                PagePath(appTools.value, app.toggle, remote: app.scripted),
                PagePath(builtInTools.value, builtIn.toggle, remote: builtIn.remote),
                PagePath(
                  devtools: floorTools.value, toggle: floorToggle,
                  press: { try await floorPress($0.presses) }, finish: { _ in }),
              ]
              var times = [[PageSample]](repeating: [], count: paths.count)
              for step in 0..<samples {
                for turn in paths.indices {
                  let which = (step + turn) % paths.count
                  times[which].append(try await time(paths[which]))
                }
              }
              return Unchecked(times)
            }
          }
        }
      }
    }
    let times = measured.value
    return PageResult(
      samples: samples, app: PageFigures(times[0].map(\.nanoseconds)),
      appScripted: PageFigures(times[1].map(\.nanoseconds)),
      builtIn: PageFigures(times[2].map(\.nanoseconds)),
      floor: PageFigures(times[3].map(\.nanoseconds)),
      appHops: PageHop.hops(times[0], names: PageHop.appNames(PageHop.inProcess)),
      appScriptedHops: PageHop.hops(times[1], names: PageHop.appNames(PageHop.scripted)),
      floorHops: PageHop.hops(times[3], names: PageHop.floorNames))
  }

  /// Times one press of `path`: arms the wait for the item it focuses in the page, presses
  /// (from here the time runs), waits for the mark, then finishes the press (its release:
  /// not timed).
  static func time(_ path: PagePath) async throws -> PageSample {
    let target = path.toggle.target
    let wait = try await path.devtools.startEvaluating("nextMark('\(target)')")
    let start = Date().timeIntervalSince1970 * 1000
    try await path.press(path.toggle)
    guard let mark = try await path.devtools.value(of: wait) as? [Any],
      let at = mark.first as? Double
    else {
      throw BenchError("\(target) was not marked focused within 5 s")
    }
    try await path.finish(path.toggle)
    path.toggle.next()
    // Stamps in epoch ms: the press, the screen's (µs), the page's arrival, the mark.
    var stamps = [start]
    if mark.count > 2, let trace = mark[2] as? [Double] { stamps += trace.map { $0 / 1000 } }
    if mark.count > 1, let arrival = mark[1] as? Double { stamps.append(arrival) }
    stamps.append(at)
    return PageSample(nanoseconds: UInt64(max(0, (at - start) * 1_000_000)), stamps: stamps)
  }
}

/// One timed path: the page it is seen in, which item its next press focuses, how it presses
/// (timed) and how it finishes a press once seen (not timed).
struct PagePath {
  var devtools: DevTools
  var toggle: PageToggle
  var press: (PageToggle) async throws -> Void
  var finish: (PageToggle) async throws -> Void

  init(
    devtools: DevTools, toggle: PageToggle, press: @escaping (PageToggle) async throws -> Void,
    finish: @escaping (PageToggle) async throws -> Void
  ) {
    (self.devtools, self.toggle, self.press, self.finish) = (devtools, toggle, press, finish)
  }

  /// A TenFoot screen's path pressed by `remote`.
  init(_ devtools: DevTools, _ toggle: PageToggle, remote: (any PageRemote)?) {
    self.init(
      devtools: devtools, toggle: toggle,
      press: { try remote?.press($0.key) }, finish: { try remote?.finish($0.key) })
  }
}

/// One timed press: the whole time and the stamps on its way (epoch ms).
struct PageSample {
  var nanoseconds: UInt64
  var stamps: [Double]
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

  /// Each percentile over `floor`'s (0 where the floor's is 0).
  func ratios(to floor: PageFigures) -> [Double] {
    zip(
      [p50Microseconds, p95Microseconds, p99Microseconds],
      [floor.p50Microseconds, floor.p95Microseconds, floor.p99Microseconds]
    ).map { $1 > 0 ? $0 / $1 : 0 }
  }
}

/// One stretch of a path, between two stamps: its p50 and p95 in microseconds (each taken
/// over the stretch alone, so they do not add up to the whole's).
struct PageHop: Codable {
  var name: String
  var p50Microseconds: Double
  var p95Microseconds: Double

  /// The press's sender on a developer's page's paths.
  static let inProcess = "the bench's remote connection"
  static let scripted = "tenfoot-remote script - (pipe, read, parse, send)"

  /// The stretches of a developer's page pressed by `sender`, with the screen's trace
  /// (`TENFOOT_TRACE_PAGE`).
  static func appNames(_ sender: String) -> [String] {
    [
      "press → the screen renders (\(sender), broker, screen's receive)",
      "the screen encodes the frame", "to the connection's task (thread hop)",
      "to the page's onmessage (event loop, kernel, Chromium)",
      "the page applies it (tenfoot.js)",
    ]
  }
  /// The floor's stretches.
  static let floorNames = [
    "press → the page's onmessage (client, relay, Chromium)", "the page applies it",
  ]

  /// The stretches of `samples` when each has one stamp more than `names` (else none).
  static func hops(_ samples: [PageSample], names: [String]) -> [PageHop] {
    guard !samples.isEmpty, samples.allSatisfy({ $0.stamps.count == names.count + 1 }) else {
      return []
    }
    return names.enumerated().map { index, name in
      let sorted = samples.map {
        UInt64(max(0, ($0.stamps[index + 1] - $0.stamps[index]) * 1_000_000))
      }.sorted()
      return PageHop(
        name: name, p50Microseconds: percentile(sorted, 0.5),
        p95Microseconds: percentile(sorted, 0.95))
    }
  }
}

/// The page benchmark's figures.
struct PageResult: Codable {
  var samples: Int
  /// A developer's page with `tenfoot.js`, pressed from a remote connection in the bench's
  /// process (as the floor's frames are sent).
  var app: PageFigures
  /// The same page pressed through `tenfoot-remote script -`'s standard input (nil: not run).
  var appScripted: PageFigures?
  /// The built-in web screen.
  var builtIn: PageFigures
  /// The bare WebSocket relay.
  var floor: PageFigures
  /// Where a developer's page's time goes (empty: the screen does not stamp its frames).
  var appHops: [PageHop] = []
  /// The same, pressed through `tenfoot-remote script -`.
  var appScriptedHops: [PageHop] = []
  /// Where the floor's time goes.
  var floorHops: [PageHop] = []
}
