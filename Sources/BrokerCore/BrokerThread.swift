import Foundation
import Logging
import ZeroMQ

/// Runs a `Broker` on a dedicated OS thread (never on the Swift concurrency pool, whose two
/// threads here must not block in `zmq_poll`). Used by the executable and by tests.
public final class BrokerThread: Sendable {
  /// Stops the broker.
  public let stopper: LoopStopper
  /// The bound control endpoints.
  public let controlEndpoints: [String]
  /// The bound state endpoints.
  public let stateEndpoints: [String]
  /// The bound pairing endpoints (empty without security).
  public let pairingEndpoints: [String]
  /// The broker's epoch.
  public let epoch: UInt64
  private let finished = DispatchSemaphore(value: 0)

  private struct Started: Sendable {
    var stopper: LoopStopper
    var control: [String]
    var state: [String]
    var pairing: [String]
    var epoch: UInt64
  }

  /// A context for a broker with `configuration`'s I/O threads.
  public static func context(for configuration: BrokerConfiguration) throws(ZeroMQError)
    -> Context
  {
    try Context(ioThreads: configuration.ioThreads)
  }

  /// Starts a broker thread and returns once its sockets are bound (or throws the bind error).
  public init(configuration: BrokerConfiguration, context: Context, logger: Logger) throws {
    let ready = DispatchSemaphore(value: 0)
    let outcome = Mailbox<Result<Started, any Error>>()
    let finished = self.finished
    let thread = Thread {
      do {
        let broker = try Broker(configuration: configuration, context: context, logger: logger)
        outcome.put(
          .success(
            Started(
              stopper: broker.stopper, control: broker.boundControlEndpoints,
              state: broker.boundStateEndpoints, pairing: broker.boundPairingEndpoints,
              epoch: broker.epoch)))
        ready.signal()
        do {
          try broker.run()
        } catch {
          logger.error("broker loop failed", metadata: ["error": "\(error)"])
        }
      } catch {
        outcome.put(.failure(error))
        ready.signal()
      }
      finished.signal()
    }
    thread.name = "tenfoot-broker"
    thread.start()
    ready.wait()
    let started = try outcome.take().get()
    stopper = started.stopper
    controlEndpoints = started.control
    stateEndpoints = started.state
    pairingEndpoints = started.pairing
    epoch = started.epoch
  }

  /// Stops the broker and waits for its thread to close its sockets.
  public func stop() {
    stopper.stop()
    finished.wait()
  }

  /// Waits up to `milliseconds` for the broker thread to end; returns whether it has.
  public func wait(milliseconds: Int) -> Bool {
    guard finished.wait(timeout: .now() + .milliseconds(milliseconds)) == .success else {
      return false
    }
    finished.signal()
    return true
  }

  /// Waits until the broker thread ends.
  public func wait() {
    finished.wait()
    finished.signal()
  }
}

/// A one-slot, thread-safe box for handing a value from one thread to another.
final class Mailbox<Value: Sendable>: @unchecked Sendable {
  // @unchecked Sendable is sound: `value` is only touched under `lock`.
  private let lock = NSLock()
  private var value: Value?

  func put(_ new: Value) { lock.withLock { value = new } }

  func take() -> Value {
    lock.withLock {
      guard let value else { preconditionFailure("Mailbox.take before put") }
      return value
    }
  }
}
