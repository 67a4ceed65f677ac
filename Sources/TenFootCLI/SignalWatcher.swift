import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into a call on a dedicated thread, so loops close their sockets,
/// without ever losing one of those signals.
///
/// Use: ``start()`` first thing in `main`, before any other thread exists; then
/// ``onTerminate(_:)`` once the program can stop cleanly (before it prints that it is ready).
///
/// How: ``start()`` blocks both signals on the main thread, so every thread created after it
/// inherits the block, and starts a watcher thread that takes them with `sigwait`. A blocked
/// signal is never discarded: it stays pending until the watcher takes it, whenever it was
/// sent. The watcher then calls the handler, or, if none is registered yet, ends the process
/// the way the signal's default action would (by re-raising it, so a raw terminal's guard
/// still restores the terminal first). The dispositions stay `SIG_DFL` throughout.
///
/// Why not a handler or a Dispatch signal source: the previous version set `SIG_IGN` and
/// resumed a `DispatchSource` signal source. On Linux, libdispatch installs its own
/// `sigaction` handler and `signalfd` only later, asynchronously, on its manager thread; until
/// then the disposition was `SIG_IGN`, and the kernel discards an ignored signal that the
/// receiving thread does not block. A SIGTERM sent right after start-up (`systemctl stop`, a
/// test stopping a process right after its ready line) was dropped and the process ran on.
/// It only bit when the process started with the signals unblocked (a shell, systemd): a child
/// started from a libdispatch worker thread (as test runners do) inherits a mask that blocks
/// them, which keeps them pending, and hid the bug. The same inheritance broke a
/// `sigaction` + self-pipe replacement: a handler never runs for a blocked signal, so children
/// started from tests (through tmux or `ip netns exec`) ignored SIGTERM and Ctrl-C. `sigwait`
/// on signals the process blocks itself works whatever mask the process inherited.
///
/// Programs started by a process that called ``start()`` inherit the blocked mask; none of
/// the TenFoot executables starts another program (reset the mask in the child if one ever
/// does, e.g. with `POSIX_SPAWN_SETSIGMASK`).
public enum SignalWatcher {
  /// The signals the watcher takes.
  static let watched: [Int32] = [SIGINT, SIGTERM]

  /// The handler ``onTerminate(_:)`` registered, and whether ``start()`` ran.
  private struct State {
    var handler: (@Sendable () -> Void)?
    var started = false
  }

  private static let state = Mutex(State())

  /// Blocks SIGINT and SIGTERM and starts the thread that waits for them. Call it first thing
  /// in `main`: a thread created before it keeps the signals unblocked and could take one with
  /// the default action (the process still ends, but without a clean shutdown). A signal that
  /// arrives before ``onTerminate(_:)`` ends the process as its default action would.
  /// Idempotent.
  public static func start() {
    let isFirst = state.withLock { state in
      defer { state.started = true }
      return !state.started
    }
    guard isFirst else { return }
    var set = signalSet()
    _ = pthread_sigmask(SIG_BLOCK, &set, nil)
    let thread = Thread { watch() }
    thread.name = "tenfoot-signals"
    thread.start()
  }

  /// Calls `handler` (on the watcher thread) for every SIGINT or SIGTERM the watcher takes from
  /// now on. Starts the watcher if ``start()`` has not run (a signal sent before then acts by
  /// default, or waits, if the process inherited it blocked, to reach the handler).
  public static func onTerminate(_ handler: @escaping @Sendable () -> Void) {
    state.withLock { $0.handler = handler }
    start()
  }

  private static func signalSet() -> sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    for number in watched { sigaddset(&set, number) }
    return set
  }

  /// The watcher thread's loop: it never returns; the process ends around it.
  private static func watch() {
    var set = signalSet()
    // Inherited from `start()`'s thread already; blocking again costs nothing and makes the
    // requirement of `sigwait` (the signals must be blocked) local.
    _ = pthread_sigmask(SIG_BLOCK, &set, nil)
    while true {
      var number: Int32 = 0
      guard sigwait(&set, &number) == 0 else { continue }
      if let handler = state.withLock({ $0.handler }) {
        handler()
      } else {
        terminateByDefault(number)
      }
    }
  }

  /// Ends the process the way `number`'s default action would: re-raises it on this thread
  /// with the signal unblocked here. A handler installed over the default (a raw terminal's
  /// guard) runs first and re-raises with the default itself; an inherited `SIG_IGN` is reset
  /// so the signal is not silently dropped now that it was taken.
  private static func terminateByDefault(_ number: Int32) {
    var current = sigaction()
    if sigaction(number, nil, &current) == 0, isIgnored(current) {
      var action = sigaction()
      sigemptyset(&action.sa_mask)
      _ = sigaction(number, &action, nil)  // A zeroed action is SIG_DFL.
    }
    var one = sigset_t()
    sigemptyset(&one)
    sigaddset(&one, number)
    _ = pthread_sigmask(SIG_UNBLOCK, &one, nil)
    _ = raise(number)
    // Still alive: something handled the signal and returned. Keep watching.
    _ = pthread_sigmask(SIG_BLOCK, &one, nil)
  }

  /// Whether `action` is `SIG_IGN` (handler value 1).
  private static func isIgnored(_ action: sigaction) -> Bool {
    guard let handler = action.__sigaction_handler.sa_handler else { return false }
    return unsafeBitCast(handler, to: Int.self) == 1
  }
}
