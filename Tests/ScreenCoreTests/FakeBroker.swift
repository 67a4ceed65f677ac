import Foundation
import ScreenCore
import Synchronization
import TenFootProtocol
import TestSupport
import ZeroMQ

/// A broker a screen talks to in a test: a real ROUTER (control) and XPUB (state) on
/// `ipc://`, served by its own `EventLoop` thread. It answers snapshot requests with a
/// 1×3 grid, everything else with an ack, and records every request. Replies to the request
/// kinds in `holding` wait until `releaseHeld()`: a slow broker.
final class FakeBroker: Sendable {
  let control: String
  let state: String
  private let received = Mutex<[Tenfoot_V1_Envelope]>([])
  private let subscribed = Mutex<[String]>([])
  private let holding: Mutex<Set<String>>
  private let commands = Mutex<[Command]>([])
  private let changed = NSCondition()
  private let stopper: LoopStopper
  private let finished = Mutex<Bool>(false)

  enum Command: Sendable {
    case publish(topic: String, Tenfoot_V1_Envelope.OneOf_Body)
    case releaseHeld
  }

  /// Binds new `ipc://` endpoints, or `endpoints` (a broker restarted where a stopped one was).
  init(
    context: Context, holding: Set<String> = [],
    endpoints: (control: String, state: String)? = nil
  ) throws {
    // ipc, as a local screen uses: its connections report handshakes, as over tcp.
    let name = UUID().uuidString.prefix(8)
    control = endpoints?.control ?? "ipc:///tmp/tenfoot-fake-\(name)-control"
    state = endpoints?.state ?? "ipc:///tmp/tenfoot-fake-\(name)-state"
    self.holding = Mutex(holding)
    stopper = try LoopStopper()
    let router = try Socket(context, .router)
    try router.bind(control)
    let publisher = try Socket(context, .xpublisher)
    try publisher.bind(state)
    let sockets = UncheckedSockets(router: router, publisher: publisher)
    Thread { [self] in serve(sockets) }.start()
  }

  /// Stops the loop thread and waits for it to close its sockets.
  func stop() {
    stopper.stop()
    _ = wait(timeout: .seconds(5)) { finished.withLock { $0 } }
    for endpoint in [control, state] { unlink(String(endpoint.dropFirst("ipc://".count))) }
  }

  /// The names of the request bodies received so far, in order.
  var requestKinds: [String] { received.withLock { $0.map { Self.kind($0.body) } } }

  /// Waits (bounded) until a request satisfies `matches`; returns the requests received
  /// before it (kinds, in order), or nil on timeout.
  func awaitRequest(
    timeout: Duration = .seconds(5), _ matches: @escaping (Tenfoot_V1_Envelope) -> Bool
  ) -> [String]? {
    var before: [String]?
    let found = wait(timeout: timeout) {
      received.withLock { list in
        guard let index = list.firstIndex(where: matches) else { return false }
        before = list[..<index].map { Self.kind($0.body) }
        return true
      }
    }
    return found ? before : nil
  }

  /// Waits (bounded) until the screen subscribed to `topic` on the state socket.
  func awaitSubscription(_ topic: String, timeout: Duration = .seconds(5)) -> Bool {
    wait(timeout: timeout) { subscribed.withLock { $0.contains(topic) } }
  }

  /// Publishes `body` under `topic` from the loop thread.
  func publish(topic: String, _ body: Tenfoot_V1_Envelope.OneOf_Body) {
    commands.withLock { $0.append(.publish(topic: topic, body)) }
    stopper.waker.wake()
  }

  /// Holds the replies to requests of these kinds from now on.
  func hold(_ kinds: Set<String>) { holding.withLock { $0 = kinds } }

  /// Sends the held replies and holds no more.
  func releaseHeld() {
    commands.withLock { $0.append(.releaseHeld) }
    stopper.waker.wake()
  }

  /// The short name of a body ("heartbeat", "input", "snapshotRequest").
  static func kind(_ body: Tenfoot_V1_Envelope.OneOf_Body?) -> String {
    guard let body else { return "none" }
    return String(describing: body).prefix { $0 != "(" }.description
  }

  private func wait(timeout: Duration, until condition: () -> Bool) -> Bool {
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    let deadline = Date().addingTimeInterval(seconds + 0.001)
    changed.lock()
    defer { changed.unlock() }
    while !condition() {
      if !changed.wait(until: deadline) { return condition() }
    }
    return true
  }

  private func signal() {
    changed.lock()
    changed.broadcast()
    changed.unlock()
  }

  private func serve(_ sockets: UncheckedSockets) {
    let loop = EventLoop(stopper: stopper)
    var held: [[[UInt8]]] = []
    var seq: UInt64 = 0
    loop.whenReadable(sockets.router) { [self] in
      while let frames = try sockets.router.receiveMultipart(dontWait: true) {
        guard frames.count == 2, let request = try? Tenfoot_V1_Envelope.decode(frames[1]) else {
          continue
        }
        seq += 1
        let reply = Tenfoot_V1_Envelope(
          sender: "broker", seq: seq, sentAtNanoseconds: 0, replyTo: request.seq,
          body: Self.answer(request.body))
        let message = [frames[0], reply.encoded()]
        if holding.withLock({ $0.contains(Self.kind(request.body)) }) {
          held.append(message)
        } else {
          try sockets.router.send(frames: message)
        }
        // Recorded once answered or held: a test that saw it changes only later requests.
        received.withLock { $0.append(request) }
        signal()
      }
    }
    loop.whenReadable(sockets.publisher) { [self] in
      while let frame = try sockets.publisher.receive(dontWait: true) {
        guard frame.first == 1 else { continue }
        subscribed.withLock { $0.append(String(decoding: frame.dropFirst(), as: UTF8.self)) }
        signal()
      }
    }
    loop.whenWoken { [self] in
      for command in commands.withLock({ list in
        defer { list = [] }; return list
      }) {
        switch command {
        case .publish(let topic, let body):
          seq += 1
          let envelope = Tenfoot_V1_Envelope(
            sender: "broker", seq: seq, sentAtNanoseconds: 0, body: body)
          try sockets.publisher.send(frames: [Array(topic.utf8), envelope.encoded()])
        case .releaseHeld:
          holding.withLock { $0 = [] }
          for message in held { try sockets.router.send(frames: message) }
          held = []
        }
      }
    }
    try? loop.run()
    sockets.close()
    finished.withLock { $0 = true }
    signal()
  }

  /// The answer to a request: a snapshot for a snapshot request, else an ack.
  static func answer(_ body: Tenfoot_V1_Envelope.OneOf_Body?) -> Tenfoot_V1_Envelope.OneOf_Body {
    guard case .snapshotRequest(let request) = body else { return .ack(Tenfoot_V1_Ack()) }
    var state = Tenfoot_V1_ScreenState()
    state.screenID = request.screenID
    state.epoch = 1
    state.seq = 1
    state.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 3))
    state.focused = "r0c0"
    return .snapshot(state)
  }
}

/// The fake broker's sockets, made on the test's thread and handed to the loop thread that
/// owns them from then on (the test thread never touches them again), hence unchecked.
private final class UncheckedSockets: @unchecked Sendable {
  let router: Socket
  let publisher: Socket

  init(router: Socket, publisher: Socket) {
    self.router = router
    self.publisher = publisher
  }

  func close() {
    router.close()
    publisher.close()
  }
}
