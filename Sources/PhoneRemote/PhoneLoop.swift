import Foundation
import Logging
import ScreenCore
import Synchronization
import ZeroMQ

/// The one thread every phone session of a screen runs on: an `EventLoop` that owns each
/// session's sockets (pairing, then control with the phone's own key) and their timers
/// (`PhoneLinks`). Other threads hand it work through a lock-protected inbox and its waker: the
/// page server a session to start (and each session's input, in the session's own queue), the
/// screen's loop the broker's pairing prompts.
///
/// The thread starts with the first session and runs until `stop()`.
final class PhoneLoop: Sendable {
  /// Wakes the loop (after work was queued) or stops it.
  let stopper: LoopStopper
  private let settings: PhoneRemoteSettings
  private let logger: Logger
  private let inbox = Mutex(Inbox())
  private let started = Atomic(false)

  /// What other threads left for the loop.
  private struct Inbox {
    /// Sessions to start, oldest first.
    var sessions: [PhoneSession] = []
    /// The broker's latest pairing prompt to this screen, if one came since the loop looked.
    var prompt: PairingOverlay??
  }

  /// A loop for sessions reaching the broker as `settings` says.
  init(settings: PhoneRemoteSettings, logger: Logger) throws(ZeroMQError) {
    stopper = try LoopStopper()
    self.settings = settings
    self.logger = logger
  }

  /// Starts `session` on the loop (starting the loop's thread with the first).
  func start(_ session: PhoneSession) {
    inbox.withLock { $0.sessions.append(session) }
    if !started.exchange(true, ordering: .acquiringAndReleasing) {
      Thread { [self] in
        // Named from inside, through the kernel's own file: Foundation's `Thread.name` reaches
        // the OS only once `start()` has recorded the thread's handle, which a thread that runs
        // first has not (seen under load: the loop's thread kept the process's name), and
        // Swift's Glibc module does not declare `pthread_setname_np`.
        try? "tenfoot-phones".write(
          toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
        run()
      }.start()
    }
    stopper.waker.wake()
  }

  /// The broker's pairing prompt to this screen (nil: withdrawn), from the screen's loop.
  func post(_ prompt: PairingOverlay?) {
    inbox.withLock { $0.prompt = .some(prompt) }
    stopper.waker.wake()
  }

  /// Ends every session and the thread (their sockets are closed on it).
  func stop() {
    stopper.stop()
  }

  /// The thread's body: the loop, until stopped.
  private func run() {
    let loop = EventLoop(stopper: stopper)
    let links = PhoneLinks(loop: loop, settings: settings, logger: logger)
    loop.whenWoken { [self] in
      let work = inbox.withLock { inbox in
        defer { inbox = Inbox() }
        return inbox
      }
      links.take(work.sessions, prompt: work.prompt)
    }
    do {
      try loop.run()
    } catch {
      logger.error("phone remote loop failed", metadata: ["error": "\(error)"])
    }
    links.closeAll()
  }
}
