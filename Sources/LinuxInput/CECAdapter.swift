import CLinuxCEC

#if canImport(Glibc)
  import Glibc
#endif

/// An HDMI-CEC adapter of the kernel's CEC framework (`/dev/cecN`), as thin as it can be:
/// open, claim a logical address as a playback device, receive messages with their
/// timestamps. What the messages mean is ``InputDevices/CECTranslator``'s (pure, tested on
/// recorded sequences).
public final class CECAdapter {
  /// The path it was opened by.
  public let path: String
  /// The adapter's descriptor: it polls readable while a received message is queued.
  public let fileDescriptor: Int32

  /// Opens `path`, checks it is a CEC adapter (`CEC_ADAP_G_CAPS`), claims a playback device's
  /// logical address named `name` (`CEC_ADAP_S_LOG_ADDRS`; at most 14 bytes are used) and
  /// becomes its follower, so User Control messages addressed to it arrive.
  public init(path: String, name: String) throws(CECAdapterError) {
    let fd = open(path, O_RDWR | O_CLOEXEC)
    guard fd >= 0 else { throw .cannotOpen(path: path, errno: errno) }
    var caps = cec_caps()
    guard tenfoot_cec_capabilities(fd, &caps) == 0 else {
      let code = errno
      close(fd)
      throw .notACECAdapter(path: path, errno: code)
    }
    guard tenfoot_cec_claim_playback(fd, name) == 0 else {
      let code = errno
      close(fd)
      throw .cannotClaimAddress(path: path, errno: code)
    }
    guard tenfoot_cec_follow(fd) == 0 else {
      let code = errno
      close(fd)
      throw .cannotFollow(path: path, errno: code)
    }
    self.path = path
    fileDescriptor = fd
  }

  deinit { close(fileDescriptor) }

  /// One received message: its bytes (header, opcode, operands) and its receive time
  /// (`CLOCK_MONOTONIC` nanoseconds).
  public struct Message: Sendable, Equatable {
    public var bytes: [UInt8]
    public var time: UInt64
    /// A message of `bytes` received at `time`.
    public init(bytes: [UInt8], time: UInt64) {
      self.bytes = bytes
      self.time = time
    }
  }

  /// Waits up to `milliseconds` (0: forever) for a message; nil on timeout or when the
  /// adapter reported the outcome of a message of ours instead.
  public func receive(milliseconds: UInt32) throws(CECAdapterError) -> Message? {
    var bytes = [UInt8](repeating: 0, count: Int(CEC_MAX_MSG_SIZE))
    var length: UInt32 = 0
    var time: UInt64 = 0
    let result = bytes.withUnsafeMutableBufferPointer { buffer in
      tenfoot_cec_receive(fileDescriptor, milliseconds, buffer.baseAddress, &length, &time)
    }
    if result != 0 {
      let code = errno
      if code == ETIMEDOUT || code == EINTR || code == EAGAIN { return nil }
      throw .receiveFailed(path: path, errno: code)
    }
    guard length > 0 else { return nil }
    return Message(bytes: Array(bytes.prefix(Int(length))), time: time)
  }
}

/// Why a CEC adapter cannot be used, with the system's error number.
public enum CECAdapterError: Error, Sendable, Equatable, CustomStringConvertible {
  case cannotOpen(path: String, errno: Int32)
  /// `CEC_ADAP_G_CAPS` failed: not a `/dev/cecN` node.
  case notACECAdapter(path: String, errno: Int32)
  /// `CEC_ADAP_S_LOG_ADDRS` failed (no HDMI link, or another program configured the adapter).
  case cannotClaimAddress(path: String, errno: Int32)
  /// `CEC_S_MODE` failed (another program is the exclusive follower).
  case cannotFollow(path: String, errno: Int32)
  case receiveFailed(path: String, errno: Int32)

  public var description: String {
    switch self {
    case .cannotOpen(let path, let code):
      "cannot open \(path): \(Self.reason(code))"
        + (code == EACCES ? " (CEC devices usually belong to the 'video' group)" : "")
    case .notACECAdapter(let path, let code):
      "\(path) is not an HDMI-CEC adapter (/dev/cecN): \(Self.reason(code))"
    case .cannotClaimAddress(let path, let code):
      "cannot claim a playback device's logical address on \(path): \(Self.reason(code))"
    case .cannotFollow(let path, let code):
      "cannot receive \(path)'s messages (another program may be its exclusive follower): "
        + Self.reason(code)
    case .receiveFailed(let path, let code):
      "receiving from \(path) failed: \(Self.reason(code))"
    }
  }

  static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
