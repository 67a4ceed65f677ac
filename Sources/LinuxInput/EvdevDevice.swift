import CEvdev
import InputDevices

#if canImport(Glibc)
  import Glibc
#endif

/// One live `/dev/input/event*` node read through libevdev: its description, its events with
/// the kernel's `CLOCK_MONOTONIC` timestamps, `SYN_DROPPED` resynchronisation, and the optional
/// exclusive grab (`EVIOCGRAB`). A thin shell: what the events mean is ``DeviceTranslator``'s.
///
/// Owned by one thread. The descriptor is non-blocking: poll ``fileDescriptor`` for input,
/// then call ``read()`` until it returns no events.
public final class EvdevDevice {
  /// The path it was opened by.
  public let path: String
  /// The open node, to poll.
  public let fileDescriptor: Int32
  /// Name, ids, codes and axis ranges, as libevdev reports them.
  public let description: DeviceDescription
  private let device: OpaquePointer
  /// Whether libevdev reported `SYN_DROPPED` and the resync events are still being read.
  private var resyncing = false

  /// Opens `path` read-only and non-blocking; with `grab`, takes the device for this process
  /// alone (other readers, the console and X/Wayland see nothing while it is held).
  public init(path: String, grab: Bool = false) throws(EvdevError) {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw EvdevError.cannotOpen(path: path, errno: errno) }
    var device: OpaquePointer?
    let result = libevdev_new_from_fd(fd, &device)
    guard result == 0, let device else {
      close(fd)
      throw EvdevError.notAnInputDevice(path: path, errno: -result)
    }
    // Kernel timestamps on the remote's own clock (the default is CLOCK_REALTIME).
    let clock = libevdev_set_clock_id(device, CLOCK_MONOTONIC)
    if clock != 0 {
      libevdev_free(device)
      close(fd)
      throw EvdevError.cannotSetClock(path: path, errno: -clock)
    }
    if grab {
      let grabbed = libevdev_grab(device, LIBEVDEV_GRAB)
      if grabbed != 0 {
        libevdev_free(device)
        close(fd)
        throw EvdevError.cannotGrab(path: path, errno: -grabbed)
      }
    }
    self.path = path
    self.fileDescriptor = fd
    self.device = device
    description = Self.describe(device)
  }

  deinit {
    // Closing the descriptor releases a grab.
    libevdev_free(device)
    close(fileDescriptor)
  }

  /// What one ``read()`` found.
  public enum Read: Sendable, Equatable {
    /// Events (possibly none: nothing was queued), in kernel order. After an overrun the
    /// batch starts with `SYN_DROPPED` followed by the differences libevdev computed.
    case events([InputEvent])
    /// The device is gone (`ENODEV`: unplugged).
    case unplugged
  }

  /// Reads everything queued now, without blocking.
  public func read() throws(EvdevError) -> Read {
    var events: [InputEvent] = []
    var event = input_event()
    while true {
      let flags =
        resyncing ? LIBEVDEV_READ_FLAG_SYNC.rawValue : LIBEVDEV_READ_FLAG_NORMAL.rawValue
      let status = libevdev_next_event(device, flags, &event)
      switch status {
      case Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue):
        events.append(Self.event(event))
      case Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue):
        // The first call returns SYN_DROPPED itself; then each difference, until -EAGAIN.
        if !resyncing {
          resyncing = true
        }
        events.append(Self.event(event))
      case -EAGAIN:
        if resyncing {
          resyncing = false
          continue
        }
        return .events(events)
      case -EINTR:
        continue
      case -ENODEV:
        return events.isEmpty ? .unplugged : .events(events)
      default:
        throw EvdevError.readFailed(path: path, errno: -status)
      }
    }
  }

  /// A kernel `input_event` as an ``InputEvent`` (its time in nanoseconds).
  public static func event(_ event: input_event) -> InputEvent {
    InputEvent(
      time: UInt64(event.time.tv_sec) * 1_000_000_000 + UInt64(event.time.tv_usec) * 1_000,
      type: event.type, code: event.code, value: event.value)
  }

  /// What libevdev knows of `device`: its name, ids, every supported code by type and the
  /// ranges of its absolute axes. Works as well on a device made with `libevdev_new()` (no
  /// kernel node), which is how the tests check the classifier.
  public static func describe(_ device: OpaquePointer) -> DeviceDescription {
    var description = DeviceDescription(
      name: libevdev_get_name(device).map { String(cString: $0) } ?? "")
    description.bus = UInt16(truncatingIfNeeded: libevdev_get_id_bustype(device))
    description.vendor = UInt16(truncatingIfNeeded: libevdev_get_id_vendor(device))
    description.product = UInt16(truncatingIfNeeded: libevdev_get_id_product(device))
    description.version = UInt16(truncatingIfNeeded: libevdev_get_id_version(device))
    for type in UInt32(0)...UInt32(EV_MAX) where libevdev_has_event_type(device, type) != 0 {
      let highest = libevdev_event_type_get_max(type)
      guard highest >= 0 else { continue }
      var codes = Set<UInt16>()
      for code in UInt32(0)...UInt32(highest) where libevdev_has_event_code(device, type, code) != 0
      {
        codes.insert(UInt16(code))
        if type == UInt32(EV_ABS), let info = libevdev_get_abs_info(device, code) {
          description.axes[UInt16(code)] = AxisRange(
            minimum: info.pointee.minimum, maximum: info.pointee.maximum,
            fuzz: info.pointee.fuzz, flat: info.pointee.flat,
            resolution: info.pointee.resolution)
        }
      }
      description.codes[UInt16(type)] = codes
    }
    return description
  }
}

/// Why a live input device cannot be used, with the system's error number.
public enum EvdevError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `open` failed (no such file, permission denied: the `input` group).
  case cannotOpen(path: String, errno: Int32)
  /// libevdev refused the node: not an evdev device (a regular file, a FIFO, a tty).
  case notAnInputDevice(path: String, errno: Int32)
  /// `EVIOCSCLOCKID` failed.
  case cannotSetClock(path: String, errno: Int32)
  /// `EVIOCGRAB` failed: another process holds the device.
  case cannotGrab(path: String, errno: Int32)
  /// Reading failed other than by the device going away.
  case readFailed(path: String, errno: Int32)

  public var description: String {
    switch self {
    case .cannotOpen(let path, let code):
      let hint =
        code == EACCES
        ? " (input devices belong to the 'input' group: add yourself with "
          + "'sudo usermod -aG input $USER' and log in again)" : ""
      return "cannot open \(path): \(Self.reason(code))\(hint)"
    case .notAnInputDevice(let path, let code):
      return "\(path) is not a Linux input device (evdev): \(Self.reason(code))"
    case .cannotSetClock(let path, let code):
      return "cannot use the monotonic clock for \(path)'s events: \(Self.reason(code))"
    case .cannotGrab(let path, let code):
      return "cannot grab \(path) (--grab; another program may hold it): \(Self.reason(code))"
    case .readFailed(let path, let code):
      return "reading \(path) failed: \(Self.reason(code))"
    }
  }

  static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
