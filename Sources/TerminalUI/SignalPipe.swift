import Glibc
import SystemCalls

/// The self-pipe trick: signals become bytes on a pipe that a poll loop watches like any other
/// descriptor, so the work a signal asks for (repaint after SIGWINCH, shut down after SIGTERM)
/// runs on the loop's thread instead of in a handler.
///
/// The handler writes one byte, the signal's number, to the pipe's write end and nothing else
/// (`write` is async-signal-safe; `errno` is preserved). Both ends are non-blocking and
/// close-on-exec: a full pipe drops bytes, which is harmless because one byte per signal kind
/// is enough to wake the loop. One pipe per signal at a time: the newest pipe for a signal
/// receives it; closing a pipe puts back the action it replaced.
public final class SignalPipe {
  /// The read end: readable when a watched signal has arrived since the last ``drain()``.
  public let fileDescriptor: Int32
  private let writeDescriptor: Int32
  /// The watched signals.
  public let signals: [Int32]
  private var previous: [Int32: sigaction] = [:]
  private var isOpen = true

  /// Opens the pipe and installs the handler for each of `signals` (e.g. `[SIGWINCH]`).
  public init(signals: [Int32]) throws(TerminalError) {
    var ends: [Int32] = [-1, -1]
    // pipe2 is a GNU extension that Swift's Glibc module does not expose: set the flags after.
    guard pipe(&ends) == 0 else {
      throw TerminalError.fromErrno("pipe", "cannot create the signal pipe")
    }
    for end in ends {
      _ = fcntl(end, F_SETFD, fcntl(end, F_GETFD) | FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    fileDescriptor = ends[0]
    writeDescriptor = ends[1]
    self.signals = signals
    for signal in signals {
      precondition(signal > 0 && signal < NSIG, "signal \(signal) out of range")
      SignalPipe.targets[Int(signal)] = writeDescriptor
      var action = sigaction()
      setHandler(&action) { number in
        let savedErrno = errno
        var byte = UInt8(truncatingIfNeeded: number)
        let target = SignalPipe.targets[Int(number)]
        if target >= 0 { _ = systemWrite(target, &byte, 1) }
        errno = savedErrno
      }
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      var replaced = sigaction()
      guard sigaction(signal, &action, &replaced) == 0 else {
        let error = TerminalError.fromErrno("sigaction", "cannot watch signal \(signal)")
        close()
        throw error
      }
      previous[signal] = replaced
    }
  }

  deinit { close() }

  /// Wakes the loop that watches this pipe, from any thread, with byte 0 (no signal has that
  /// number, so ``drain()`` returns 0 among the signals). The caller makes sure it is never
  /// called during or after ``close()`` (TerminalRenderer does so under a lock).
  public func poke() {
    var byte: UInt8 = 0
    _ = systemWrite(writeDescriptor, &byte, 1)
  }

  /// Reads everything the pipe holds and returns the signals that arrived, each once, in
  /// order of first arrival. Never blocks.
  public func drain() -> [Int32] {
    var arrived: [Int32] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while isOpen {
      let count = SystemCall.retryingInterrupts { read(fileDescriptor, &buffer, buffer.count) }
      if count > 0 {
        for byte in buffer[0..<count] where !arrived.contains(Int32(byte)) {
          arrived.append(Int32(byte))
        }
      } else {
        break  // EAGAIN: empty; 0 cannot happen while the write end is open.
      }
    }
    return arrived
  }

  /// Puts the replaced signal actions back and closes both ends. Idempotent.
  public func close() {
    guard isOpen else { return }
    isOpen = false
    for (signal, action) in previous {
      var action = action
      if SignalPipe.targets[Int(signal)] == writeDescriptor {
        _ = sigaction(signal, &action, nil)
        SignalPipe.targets[Int(signal)] = -1
      }
    }
    previous = [:]
    _ = Glibc.close(fileDescriptor)
    _ = Glibc.close(writeDescriptor)
  }

  // nonisolated(unsafe) is sound: the pointer never changes after its one-time initialisation
  // (which happens in `init` before any handler is installed); the handler only reads an
  // aligned Int32 slot that `init`/`close` write on the owning thread.
  nonisolated(unsafe) static let targets: UnsafeMutablePointer<Int32> = {
    let pointer = UnsafeMutablePointer<Int32>.allocate(capacity: Int(NSIG))
    pointer.initialize(repeating: -1, count: Int(NSIG))
    return pointer
  }()
}
