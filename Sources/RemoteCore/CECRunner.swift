import InputDevices
import LinuxInput
import Logging
import TenFootProtocol

/// Drives the remote from an HDMI-CEC adapter: received messages (with the kernel's receive
/// timestamps) through the pure ``CECTranslator`` and a ``DeviceSession``'s sending. While a
/// key is down it sends a `held` tick every 50 ms, and releases the key if the TV stops
/// repeating Pressed without sending Released (the 550 ms safety timeout).
///
/// A message the translator refuses (empty, oversized, malformed) is logged and skipped: one
/// bad frame on the bus does not end the remote.
public final class CECRunner {
  /// Receives one message within the milliseconds given (0: forever), nil on timeout.
  public typealias Receive = (UInt32) throws -> CECAdapter.Message?

  private let receive: Receive
  private let session: DeviceSession
  private let logger: Logger
  private var translator = CECTranslator()

  /// A runner for `device` (its path, for logs) reading through `receive`.
  public init(
    client: RemoteClient, device: String, receive: @escaping Receive, logger: Logger,
    report: @escaping (PressResult) -> Void
  ) {
    self.receive = receive
    self.logger = logger
    session = DeviceSession(
      client: client, device: device, mapping: .defaults,
      description: DeviceDescription(name: device), logger: logger, report: report)
  }

  /// Runs until receiving fails.
  public func run() throws {
    var nextTick: UInt64?
    while true {
      let now = MonotonicClock.nanoseconds()
      let timeout: UInt32 =
        nextTick.map { $0 <= now ? 1 : UInt32(max(1, ($0 - now) / 1_000_000)) } ?? 0
      if let message = try receive(timeout) {
        do {
          try session.carryOut(translator.handle(message.bytes, at: message.time))
        } catch let error as CECError {
          logger.warning("refusing a CEC message", metadata: ["error": "\(error)"])
        }
        nextTick = translator.keyDown == nil ? nil : message.time + DeviceTranslator.tickInterval
      }
      let after = MonotonicClock.nanoseconds()
      if let due = nextTick, due <= after {
        try session.carryOut(translator.tick(at: due))
        nextTick = translator.keyDown == nil ? nil : due + DeviceTranslator.tickInterval
      }
    }
  }
}
