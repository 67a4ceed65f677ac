import Foundation
import InputDevices
import LinuxInput
import SystemCalls
import TenFootProtocol

#if canImport(Glibc)
  import Glibc
#endif

/// Where a device's kernel events come from: a live evdev node (``EvdevSource``) or an
/// `evemu-record` stream (``EvemuStreamSource``). ``DeviceRunner`` polls the descriptor and
/// reads; both kinds go through the same session, unplugging and waiting.
public protocol DeviceSource: AnyObject {
  /// The descriptor to poll for input.
  var fileDescriptor: Int32 { get }
  /// What the device is (its kind and axis ranges).
  var description: DeviceDescription { get }
  /// Everything queued now, without blocking; `.unplugged` once the device has gone.
  func read() throws(DeviceSourceError) -> DeviceRead
}

/// What one read found.
public enum DeviceRead: Sendable, Equatable {
  /// Events on the remote's clock (possibly none).
  case events([InputEvent])
  /// The device is gone: `ENODEV` from a live node, end of file from a stream.
  case unplugged
}

/// A device path that cannot be used, as a sentence.
public struct DeviceSourceError: Error, Sendable, CustomStringConvertible {
  /// What is wrong.
  public let description: String
  /// Whether the path may become usable by itself (it is missing, or its permissions are
  /// still being set by udev) rather than being the wrong kind of file.
  public let isTransient: Bool
  /// An error.
  public init(_ description: String, isTransient: Bool = false) {
    self.description = description
    self.isTransient = isTransient
  }
}

/// Opens a path as a ``DeviceSource``.
public typealias DeviceOpener = (String) throws(DeviceSourceError) -> any DeviceSource

/// A live `/dev/input/event*` node through libevdev, with the kernel's monotonic timestamps.
public final class EvdevSource: DeviceSource {
  private let device: EvdevDevice

  /// Opens `path` (grabbing it with `grab`).
  public init(path: String, grab: Bool) throws(DeviceSourceError) {
    do {
      device = try EvdevDevice(path: path, grab: grab)
    } catch {
      let transient: Bool =
        switch error {
        case .cannotOpen(_, let code): code == ENOENT || code == EACCES
        default: false
        }
      throw DeviceSourceError(error.description, isTransient: transient)
    }
  }

  public var fileDescriptor: Int32 { device.fileDescriptor }
  public var description: DeviceDescription { device.description }

  public func read() throws(DeviceSourceError) -> DeviceRead {
    do {
      switch try device.read() {
      case .events(let events): return .events(events)
      case .unplugged: return .unplugged
      }
    } catch {
      throw DeviceSourceError(error.description)
    }
  }

  /// The opener for live nodes.
  public static func opener(grab: Bool) -> DeviceOpener {
    { (path: String) throws(DeviceSourceError) -> any DeviceSource in
      try EvdevSource(path: path, grab: grab)
    }
  }
}

/// An `evemu-record` text stream read as it arrives, from a FIFO or a file: the same
/// descriptor and event lines a recording has. Opening waits (up to ``headerTimeout``) for the
/// descriptor lines (until the first event or `evemu-record`'s "Waiting for events" comment),
/// so the device's kind is known as a live node's is. The first event is
/// stamped with the moment it arrives and the rest keep their gaps from it (the runner waits
/// for each event's time), so holds and repeats are the recording's. End of file is the
/// device being unplugged: a FIFO's writer closing (`ssh host evemu-record … > fifo` ending)
/// or a file read to its end.
public final class EvemuStreamSource: DeviceSource {
  /// How long opening waits for the descriptor lines (up to the first event).
  public static let headerTimeout = Duration.seconds(5)

  public let fileDescriptor: Int32
  private let path: String
  private var parser = EvemuStreamParser()
  private var pending: [UInt8] = []
  private var offset: Int64?
  private var buffer = [UInt8](repeating: 0, count: 4096)
  private var ended = false
  /// Events read while opening, handed out by the first ``read()``.
  private var queued: [InputEvent] = []

  /// Opens `path` for reading, non-blocking (a FIFO opens without waiting for its writer),
  /// and reads its descriptor lines.
  public init(path: String) throws(DeviceSourceError) {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      let code = errno
      throw DeviceSourceError(
        "cannot open \(path): \(String(cString: strerror(code)))", isTransient: code == ENOENT)
    }
    self.path = path
    fileDescriptor = fd
    let deadline = MonotonicClock.now + Self.headerTimeout
    while queued.isEmpty, !ended, !parser.headerEnded {
      let left = deadline - MonotonicClock.now
      guard left > .zero else { break }
      var item = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      _ = poll(&item, 1, Int32(left / .milliseconds(1)) + 1)
      guard case .events(let events) = try take() else { break }
      queued += events
    }
    guard parser.device.name.isEmpty == false else {
      throw DeviceSourceError(
        "\(path) is not an evemu-record stream: no device name (an N: line) within "
          + "\(Self.headerTimeout.components.seconds) s")
    }
  }

  deinit { close(fileDescriptor) }

  public var description: DeviceDescription { parser.device }

  public func read() throws(DeviceSourceError) -> DeviceRead {
    let earlier = queued
    queued = []
    switch try take() {
    case .events(let events): return .events(earlier + events)
    case .unplugged: return earlier.isEmpty ? .unplugged : .events(earlier)
    }
  }

  private func take() throws(DeviceSourceError) -> DeviceRead {
    guard !ended else { return .unplugged }
    var events: [InputEvent] = []
    while true {
      let count = buffer.withUnsafeMutableBytes { bytes in
        SystemCall.retryingInterrupts { Glibc.read(fileDescriptor, bytes.baseAddress, bytes.count) }
      }
      if count < 0 {
        if errno == EAGAIN { return .events(events) }
        throw DeviceSourceError("reading \(path) failed: \(String(cString: strerror(errno)))")
      }
      if count == 0 {
        ended = true
        return events.isEmpty ? .unplugged : .events(events)
      }
      pending += buffer[0..<count]
      while let newline = pending.firstIndex(of: 0x0A) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        do {
          guard let event = try parser.take(Substring(line)) else { continue }
          events.append(stamped(event))
        } catch {
          throw DeviceSourceError("\(path): \(error)")
        }
      }
      guard pending.count <= 4096 else {
        throw DeviceSourceError("\(path): a line longer than 4096 bytes")
      }
    }
  }

  private func stamped(_ event: InputEvent) -> InputEvent {
    let offset =
      self.offset ?? Int64(bitPattern: MonotonicClock.nanoseconds() &- event.time)
    self.offset = offset
    var event = event
    event.time = UInt64(bitPattern: Int64(bitPattern: event.time) &+ offset)
    return event
  }

  /// The opener for streams.
  public static func opener() -> DeviceOpener {
    { (path: String) throws(DeviceSourceError) -> any DeviceSource in
      try EvemuStreamSource(path: path)
    }
  }
}
