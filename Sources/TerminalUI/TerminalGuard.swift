import Glibc

/// Puts the terminal back when the process dies without calling ``RawTerminal/restore()``:
/// on SIGINT, SIGTERM and SIGHUP (only where nobody else handles them), on the fatal signals
/// SIGSEGV, SIGABRT, SIGBUS, SIGILL and SIGFPE, and at `exit`.
///
/// A signal handler may only make async-signal-safe calls, so everything it needs — the
/// descriptor, the saved `termios` and the pre-rendered restore bytes — is prepared by
/// ``RawTerminal/enter(_:)`` in memory allocated once and reached through `let` pointers (no
/// allocation, locking, lazy initialisation or exclusivity checks in the handler). The handler
/// calls only `write`, `tcsetattr`, `sigaction` and `raise`, then re-raises the signal with the
/// disposition it had before (the default, or the Swift runtime's crash reporter, which then
/// prints to a usable terminal).
///
/// Termination signals are taken only if their disposition is still the default: a program
/// that handles SIGINT itself (for a clean shutdown that ends in ``RawTerminal/restore()``)
/// keeps its handler. One raw terminal is guarded at a time: the most recently entered.
/// TenFootCLI's `SignalWatcher` keeps SIGINT and SIGTERM at the default but blocked on every
/// thread and takes them with `sigwait`: the guard's handler for them then runs only when the
/// watcher re-raises a signal that no clean shutdown was registered for.
enum TerminalGuard {
  /// Signals that end the process by default and that programs often handle themselves.
  static let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
  /// Signals raised by crashes.
  static let fatalSignals: [Int32] = [SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE]
  /// Room for the restore bytes; they are a few dozen at most.
  static let capacity = 64

  /// The guard's state, at a fixed address.
  struct State {
    /// Non-zero while a terminal needs restoring: the token of the arming `enter`.
    var armedToken: Int32 = 0
    /// The token of the newest `arm`, which owns the installed handlers.
    var lastToken: Int32 = 0
    var fd: Int32 = -1
    var settings = termios()
    var byteCount = 0
    var exitHandlerRegistered = false
  }

  // nonisolated(unsafe) is sound here: these pointers are set once (lazily, on the first
  // `arm`, before any handler is installed) and never change; the memory behind them is
  // written only by `arm`/`disarm` on the owning thread while the handlers are installed in a
  // consistent order (state first, handlers after), and read by the handlers.
  nonisolated(unsafe) static let state: UnsafeMutablePointer<State> = {
    let pointer = UnsafeMutablePointer<State>.allocate(capacity: 1)
    pointer.initialize(to: State())
    return pointer
  }()
  nonisolated(unsafe) static let bytes: UnsafeMutablePointer<UInt8> = {
    let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    pointer.initialize(repeating: 0, count: capacity)
    return pointer
  }()
  /// Per signal: whether the guard's handler is installed, and the action it replaced.
  nonisolated(unsafe) static let installed: UnsafeMutablePointer<Bool> = {
    let pointer = UnsafeMutablePointer<Bool>.allocate(capacity: Int(NSIG))
    pointer.initialize(repeating: false, count: Int(NSIG))
    return pointer
  }()
  nonisolated(unsafe) static let previous: UnsafeMutablePointer<sigaction> = {
    let pointer = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))
    pointer.initialize(repeating: sigaction(), count: Int(NSIG))
    return pointer
  }()

  /// Records what to restore, installs the handlers and returns a token for ``disarm(token:)``.
  static func arm(fd: Int32, settings: termios, restoreBytes: [UInt8]) -> Int32 {
    let count = min(restoreBytes.count, capacity)
    for index in 0..<count { bytes[index] = restoreBytes[index] }
    state.pointee.fd = fd
    state.pointee.settings = settings
    state.pointee.byteCount = count
    state.pointee.lastToken &+= 1
    if state.pointee.lastToken == 0 { state.pointee.lastToken = 1 }
    let token = state.pointee.lastToken
    state.pointee.armedToken = token
    if !state.pointee.exitHandlerRegistered {
      state.pointee.exitHandlerRegistered = true
      atexit { TerminalGuard.emergencyRestore() }
    }
    for signal in terminationSignals { install(signal, onlyOverDefault: true) }
    for signal in fatalSignals { install(signal, onlyOverDefault: false) }
    return token
  }

  /// Forgets the terminal armed with `token` (a later `arm` owns the guard otherwise) and puts
  /// the replaced signal actions back.
  static func disarm(token: Int32) {
    // The newest `arm` owns the guard; its token stays current after an emergency restore
    // (which only clears `armedToken`), so the handlers still come off here.
    guard token != 0, state.pointee.lastToken == token else { return }
    state.pointee.armedToken = 0
    for signal in terminationSignals + fatalSignals where installed[Int(signal)] {
      installed[Int(signal)] = false
      _ = sigaction(signal, &previous[Int(signal)], nil)
    }
  }

  /// Whether a terminal is armed (for tests).
  static var isArmed: Bool { state.pointee.armedToken != 0 }

  private static func install(_ signal: Int32, onlyOverDefault: Bool) {
    guard !installed[Int(signal)] else { return }
    var current = sigaction()
    guard sigaction(signal, nil, &current) == 0 else { return }
    if onlyOverDefault && !isDefault(current) { return }
    previous[Int(signal)] = current
    var action = sigaction()
    setHandler(&action) { number in
      TerminalGuard.emergencyRestore()
      // Put back the replaced action and re-raise: the signal is blocked while this handler
      // runs, so it is delivered with that action as soon as the handler returns (for a crash,
      // the faulting instruction runs again and faults under it).
      if TerminalGuard.installed[Int(number)] {
        TerminalGuard.installed[Int(number)] = false
        _ = sigaction(number, &TerminalGuard.previous[Int(number)], nil)
      }
      _ = raise(number)
    }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    guard sigaction(signal, &action, nil) == 0 else { return }
    installed[Int(signal)] = true
  }

  /// Writes the restore bytes and puts the saved settings back, if a terminal is armed.
  /// Async-signal-safe: `write` and `tcsetattr` only, from preallocated memory.
  static func emergencyRestore() {
    guard state.pointee.armedToken != 0 else { return }
    state.pointee.armedToken = 0
    let savedErrno = errno
    let fd = state.pointee.fd
    var offset = 0
    let count = state.pointee.byteCount
    // Written out rather than SystemCall.retryingInterrupts: this runs in a signal handler,
    // where only async-signal-safe code belongs.
    while offset < count {
      let written = systemWrite(fd, bytes + offset, count - offset)
      if written > 0 {
        offset += written
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        break
      }
    }
    _ = withUnsafeMutablePointer(to: &state.pointee.settings) { tcsetattr(fd, TCSANOW, $0) }
    errno = savedErrno
  }
}

/// Whether `action` is the default disposition.
func isDefault(_ action: sigaction) -> Bool {
  // SIG_DFL is the null handler; a SA_SIGINFO handler shares the union, so it is non-null too.
  action.__sigaction_handler.sa_handler == nil
}

/// Sets `action`'s handler to a C function.
func setHandler(_ action: inout sigaction, _ handler: @convention(c) (Int32) -> Void) {
  action.__sigaction_handler.sa_handler = handler
}
