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
/// The three paths are set up side by side and timed interleaved, one press each per round
/// (which goes first rotates), so all three see the same machine: load from other work moves
/// them together and their ratios hold. Each press is timed from just before it is sent; the
/// wait for its mark is armed in the page before that, so the page does nothing for DevTools
/// while the frame is on its way.
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
    let app = try PageScreen(app: true, trace: true)
    let builtIn = try PageScreen(app: false, trace: false)
    let floor = try PageFloor()
    let measured: Unchecked<[[PageSample]]> = try blocking {
      try await app.browser.session { appTools in
        try await builtIn.browser.session { builtInTools in
          try await floor.browser.session { floorTools in
            try await floor.withSender { floorPress in
              try await app.ready(appTools.value)
              try await builtIn.ready(builtInTools.value)
              try await floor.ready(floorTools.value)
              // Each path's press for a step and the item it focuses: the second on even
              // steps, the first on odd ones.
              let paths: [(DevTools, (String, String), (Int) async throws -> Void)] = [
                (appTools.value, app.ids, { app.press($0) }),
                (builtInTools.value, builtIn.ids, { builtIn.press($0) }),
                (floorTools.value, ("x0", "x1"), floorPress),
              ]
              var times: [[PageSample]] = [[], [], []]
              for step in 0..<samples {
                for turn in 0..<3 {
                  let which = (step + turn) % 3
                  let (devtools, ids, press) = paths[which]
                  times[which].append(
                    try await time(devtools, target: step % 2 == 0 ? ids.1 : ids.0) {
                      try await press(step)
                    })
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
      builtIn: PageFigures(times[1].map(\.nanoseconds)),
      floor: PageFigures(times[2].map(\.nanoseconds)),
      appHops: PageHop.hops(times[0], names: PageHop.appNames),
      floorHops: PageHop.hops(times[2], names: PageHop.floorNames))
  }

  /// Times press `step` of one path, which focuses `target`: arms the wait for its mark in
  /// the page, presses (from here the time runs) and waits for the mark.
  static func time(
    _ devtools: DevTools, target: String, press: () async throws -> Void
  ) async throws -> PageSample {
    let wait = try await devtools.startEvaluating("nextMark('\(target)')")
    let start = Date().timeIntervalSince1970 * 1000
    try await press()
    guard let mark = try await devtools.value(of: wait) as? [Any], let at = mark.first as? Double
    else {
      throw BenchError("\(target) was not marked focused within 5 s")
    }
    // Stamps in epoch ms: the press, the screen's (µs), the page's arrival, the mark.
    var stamps = [start]
    if mark.count > 2, let trace = mark[2] as? [Double] { stamps += trace.map { $0 / 1000 } }
    if mark.count > 1, let arrival = mark[1] as? Double { stamps.append(arrival) }
    stamps.append(at)
    return PageSample(nanoseconds: UInt64(max(0, (at - start) * 1_000_000)), stamps: stamps)
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

  /// The stretches of a developer's page, with the screen's trace (`TENFOOT_TRACE_PAGE`).
  static let appNames = [
    "press → the screen renders (remote, broker, screen's receive)",
    "the screen encodes the frame", "to the connection's task (thread hop)",
    "to the page's onmessage (event loop, kernel, Chromium)", "the page applies it (tenfoot.js)",
  ]
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
  /// A developer's page with `tenfoot.js`.
  var app: PageFigures
  /// The built-in web screen.
  var builtIn: PageFigures
  /// The bare WebSocket relay.
  var floor: PageFigures
  /// Where a developer's page's time goes (empty: the screen does not stamp its frames).
  var appHops: [PageHop] = []
  /// Where the floor's time goes.
  var floorHops: [PageHop] = []
}
