import InputDevices
import LinuxInput
import Logging
import TenFootProtocol
import ZeroMQ

/// Drives the remote from an HDMI-CEC adapter on an ``EventLoop``: received messages (with the
/// kernel's receive timestamps) through the pure ``CECTranslator`` and a ``DeviceSession``'s
/// sending. While a key is down a timer sends a `held` tick every 50 ms, and releases the key
/// if the TV stops repeating Pressed without sending Released (the 550 ms safety timeout).
///
/// A message the translator refuses (empty, oversized, malformed) is logged and skipped: one
/// bad frame on the bus does not end the remote.
public final class CECRunner {
  /// Receives one message within the milliseconds given (0: forever), nil on timeout.
  public typealias Receive = (UInt32) throws -> CECAdapter.Message?

  /// Stops ``run()`` from any thread.
  public var stopper: LoopStopper { loop.stopper }
  private let fileDescriptor: Int32
  private let receive: Receive
  private let session: DeviceSession
  private let logger: Logger
  private let loop: EventLoop
  private var translator = CECTranslator()
  private var tick: EventLoop.TimerID?

  /// A runner for `device` (its path, for logs) reading through `receive` whenever
  /// `fileDescriptor` (the adapter's, which polls readable while a message is queued) is
  /// readable.
  public init(
    client: RemoteClient, device: String, fileDescriptor: Int32, receive: @escaping Receive,
    logger: Logger, report: @escaping (PressResult) -> Void
  ) throws {
    self.fileDescriptor = fileDescriptor
    self.receive = receive
    self.logger = logger
    loop = try EventLoop()
    session = DeviceSession(
      client: client, device: device, mapping: .defaults,
      description: DeviceDescription(name: device), logger: logger, report: report)
  }

  /// Runs on the calling thread until receiving fails or `stopper` stops it.
  public func run() throws {
    loop.whenReadable(fileDescriptor: fileDescriptor) { [unowned self] in
      // Readable: a message is queued, so this returns at once (the bound is for a message
      // another reader took first).
      guard let message = try receive(1) else { return }
      do {
        try session.carryOut(translator.handle(message.bytes, at: message.time))
      } catch let error as CECError {
        logger.warning("refusing a CEC message", metadata: ["error": "\(error)"])
      }
      scheduleTick(at: MonotonicInstant(nanoseconds: message.time) + DeviceTranslator.tickInterval)
    }
    try loop.run()
  }

  /// The next `held` tick (or safety release) at `due` on the remote's clock, while a key is
  /// down; replaces the one scheduled.
  private func scheduleTick(at due: MonotonicInstant) {
    if let tick { loop.cancel(tick) }
    tick = nil
    guard translator.keyDown != nil else { return }
    tick = loop.schedule(after: max(.zero, due - MonotonicClock.now)) { [unowned self] in
      tick = nil
      try session.carryOut(translator.tick(at: due.nanoseconds))
      scheduleTick(at: due + DeviceTranslator.tickInterval)
    }
  }
}
