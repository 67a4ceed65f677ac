import FocusEngine
import Foundation
import Logging
import Synchronization
import TenFootProtocol
import TestSupport
import ZeroMQ

@testable import ScreenCore

/// A `ScreenClient` on its own thread against a `FakeBroker`, on a `ManualClock` the test
/// advances: the screen's timing rules run without sleeping.
final class ScreenHarness: @unchecked Sendable {
  let context: Context
  private(set) var broker: FakeBroker
  let clock = ManualClock()
  let renderer = RecordingRenderer()
  /// Made on the test thread, then run (and touched) only on the screen's thread; the test
  /// reaches it through its Sendable `stopper` and `inputs`.
  private let client: ScreenClient
  private let done = NSCondition()
  private var result: Result<Void, any Error>?
  private var probes = 0

  init(
    holding: Set<String> = [], layout: Layout? = TestLayouts.grid(rows: 1, columns: 3),
    requestTimeout: Duration? = nil
  ) throws {
    context = try Context()
    broker = try FakeBroker(context: context, holding: holding)
    var configuration = ScreenConfiguration(
      endpoints: Endpoints(control: broker.control, state: broker.state), screenID: "main",
      layout: layout)
    configuration.clock = .manual(clock)
    // Virtual time jumps while a reply is on its way: by default no advance of a test times
    // a request out.
    configuration.requestTimeout = requestTimeout ?? .seconds(3600)
    client = try ScreenClient(
      configuration: configuration, context: context, renderer: renderer,
      logger: Logger(label: "test.screen"))
  }

  /// Runs the screen on its own thread, once its control connection is up (connecting is
  /// real I/O, and a request made before it waits for a retry on the loop's clock, which
  /// moves only when the test advances it), and returns once it drew its first frame and
  /// finished that iteration (a probe), so the test's first advance comes after it.
  func start() throws {
    try client.control.awaitConnected(until: .now + .seconds(5))
    defer {
      if renderer.await(until: { $0.frameCount >= 1 }) { _ = probe() }
    }
    Thread { [self] in
      let outcome = Result { try client.run() }
      done.lock()
      result = outcome
      done.broadcast()
      done.unlock()
    }.start()
  }

  /// Stops the screen and the broker; returns how the screen's run ended (nil: it did not
  /// end within 5 s).
  @discardableResult
  func stop() -> Result<Void, any Error>? {
    client.stopper.stop()
    done.lock()
    let deadline = Date().addingTimeInterval(5)
    while result == nil, done.wait(until: deadline) {}
    let ended = result
    done.unlock()
    broker.stop()
    return ended
  }

  /// Stops the broker (its sockets close, as a broker's do when it exits) and starts a new one
  /// at the same endpoints, answering everything.
  func restartBroker() throws {
    broker.stop()
    broker = try FakeBroker(context: context, endpoints: (broker.control, broker.state))
  }

  /// Queues a text input, as a web page acting as a remote does.
  func input(_ text: String) {
    client.inputs.enqueue(.text(.set(text)))
  }

  /// A barrier: sends two text inputs through the screen's input queue, the second once the
  /// broker has the first, and returns the kinds of everything the screen sent before the
  /// second. The first goes out in some iteration that may go on to fire timers; the second
  /// goes out in a later one, so whatever the screen did for time advanced before this call
  /// is in the list. Nil if an input did not arrive within 5 s.
  func probe() -> [String]? {
    var kinds: [String]?
    for _ in 0..<2 {
      probes += 1
      let text = "probe \(probes)"
      client.inputs.enqueue(.text(.set(text)))
      kinds = broker.awaitRequest {
        guard case .input(let input) = $0.body, case .text(let edit) = input.event else {
          return false
        }
        return edit.set == text
      }
      if kinds == nil { return nil }
    }
    return kinds
  }
}

/// A renderer that records the frames it drew and the link banners it showed.
final class RecordingRenderer: Renderer, LinkDisplay, @unchecked Sendable {
  private let frames = Mutex<[ScreenFrame]>([])
  private let links = Mutex<[BrokerLink]>([])
  private let changed = NSCondition()

  func start() throws {}
  func render(_ frame: ScreenFrame) throws {
    frames.withLock { $0.append(frame) }
    signal()
  }
  var wakeFileDescriptor: Int32? { nil }
  func handleWake() throws {}
  func stop() {}
  func showLink(_ link: BrokerLink) throws {
    links.withLock { $0.append(link) }
    signal()
  }

  /// The banners shown so far.
  var linkChanges: [BrokerLink] { links.withLock { $0 } }
  /// The sequence numbers of the frames drawn.
  var frameSeqs: [UInt64] { frames.withLock { $0.map(\.seq) } }
  /// How many frames were drawn.
  var frameCount: Int { frames.withLock { $0.count } }

  /// Waits (bounded) until `condition` holds of the renderer.
  func await(
    _ timeout: Duration = .seconds(5), until condition: (RecordingRenderer) -> Bool
  ) -> Bool {
    let deadline = Date().addingTimeInterval(Double(timeout.components.seconds))
    changed.lock()
    defer { changed.unlock() }
    while !condition(self) {
      if !changed.wait(until: deadline) { return condition(self) }
    }
    return true
  }

  private func signal() {
    changed.lock()
    changed.broadcast()
    changed.unlock()
  }
}
