import Foundation
import Synchronization
import TenFootProtocol
import ZeroMQ

/// A broker that acknowledges key downs late, for a remote in a test: a real ROUTER on
/// `ipc://` (whose connections report handshakes, as the remote waits for one) served by its
/// own thread. It welcomes the remote to screen "main", acknowledges every input and records
/// its key events; the acknowledgement of a key down waits until the monotonic clock is `delay`
/// past the down's stamp, as a zone's press waits for its screen after a takeover.
final class LateBroker: Sendable {
  /// The control endpoint.
  let endpoint: String
  private let delay: UInt64
  private let keys = Mutex<[Tenfoot_V1_KeyEvent]>([])
  /// Signalled after each key event is recorded.
  private let recorded = DispatchSemaphore(value: 0)
  private let stopping = Mutex(false)
  private let finished = DispatchSemaphore(value: 0)

  /// Binds the broker; downs are acknowledged `delay` after their stamp.
  init(context: Context, delay: Duration) throws {
    let name = UUID().uuidString.prefix(8)
    endpoint = "ipc:///tmp/tenfoot-late-\(name)-control"
    self.delay = UInt64(delay / .nanoseconds(1))
    let router = try Socket(context, .router)
    try router.bind(endpoint)
    let socket = OwnedSocket(router)
    Thread { [self] in serve(socket.socket) }.start()
  }

  /// The key events received so far, in order.
  var keyEvents: [Tenfoot_V1_KeyEvent] { keys.withLock { $0 } }

  /// Waits until the key events received satisfy `done`, at most until `deadline`; returns
  /// whether they did.
  func waitForKeys(
    until deadline: DispatchTime, _ done: ([Tenfoot_V1_KeyEvent]) -> Bool
  ) -> Bool {
    while !done(keyEvents) {
      guard recorded.wait(timeout: deadline) == .success else { return done(keyEvents) }
    }
    return true
  }

  /// Stops the thread and waits (bounded) for it to close its socket.
  func stop() {
    stopping.withLock { $0 = true }
    _ = finished.wait(timeout: .now() + 5)
    unlink(String(endpoint.dropFirst("ipc://".count)))
  }

  private func serve(_ router: Socket) {
    defer {
      router.close()
      finished.signal()
    }
    var seq: UInt64 = 0
    /// Replies waiting for the monotonic clock to reach their time.
    var late: [(at: UInt64, frames: [[UInt8]])] = []
    while !stopping.withLock({ $0 }) {
      // Bounded waits, so that `stop` is seen within 50 ms.
      let now = MonotonicClock.nanoseconds()
      let next = min(late.map(\.at).min() ?? .max, now + 50_000_000)
      let wait = Duration.nanoseconds(Int64(clamping: next > now ? next - now : 0))
      do {
        _ = try router.awaitInput(until: .now + wait)
        while let frames = try router.receiveMultipart(dontWait: true) {
          guard frames.count == 2, let request = try? Tenfoot_V1_Envelope.decode(frames[1]) else {
            continue
          }
          seq += 1
          let reply = Tenfoot_V1_Envelope(
            sender: "broker", seq: seq, sentAtNanoseconds: 0, replyTo: request.seq,
            body: answer(request.body))
          let message = [frames[0], reply.encoded()]
          if case .input(let input) = request.body, case .key(let key) = input.event {
            keys.withLock { $0.append(key) }
            recorded.signal()
            if key.phase == .down {
              late.append((key.timestampNs + delay, message))
              continue
            }
          }
          _ = try router.send(frames: message)
        }
        let due = MonotonicClock.nanoseconds()
        for reply in late where reply.at <= due { _ = try router.send(frames: reply.frames) }
        late.removeAll { $0.at <= due }
      } catch {
        return
      }
    }
  }

  /// A welcome to screen "main" for a hello, an acknowledgement for anything else.
  private func answer(_ body: Tenfoot_V1_Envelope.OneOf_Body?) -> Tenfoot_V1_Envelope.OneOf_Body {
    guard case .hello = body else { return .ack(Tenfoot_V1_Ack()) }
    var welcome = Tenfoot_V1_Welcome()
    welcome.screens = ["main"]
    return .welcome(welcome)
  }
}

/// The broker's socket on its way to the thread that serves it. `@unchecked Sendable` is
/// sound: `init` only binds it, and from then on that one thread alone uses and closes it.
private final class OwnedSocket: @unchecked Sendable {
  let socket: Socket

  init(_ socket: Socket) { self.socket = socket }
}
