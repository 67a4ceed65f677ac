import FocusEngine
import Foundation
import Logging
import ScreenCore
import SystemCalls

/// Speaks announcements aloud, one utterance at a time, through speech-dispatcher (`spd-say`)
/// or espeak-ng.
///
/// Each utterance is one child process, started and awaited on the speaker's own thread (never
/// the screen's loop or the concurrency pool). An interrupting announcement (a new focus)
/// drops what is queued and ends the utterance still going — its process gets SIGTERM, and
/// speech-dispatcher is told to cancel — so speech never lags behind focus. Other
/// announcements (an activation, an edge cue) wait their turn.
///
/// Text reaches the speech program as one argument after `--`, never through a shell, so a
/// label cannot become an option or a command.
public final class Speaker: @unchecked Sendable {
  // @unchecked Sendable is sound: `queue`, `current`, `counter` and `stopped` are touched only
  // under `condition`'s lock; `voice`, `environment`, `logger` and `onEvent` are immutable.

  /// Where speech goes.
  public enum Voice: Sendable, Equatable {
    /// speech-dispatcher's client at this path (`spd-say`).
    case speechDispatcher(String)
    /// espeak-ng at this path, to the sound card.
    case espeak(String)
    /// espeak-ng at this path, each utterance into `DIRECTORY/utterance-N.wav` (tests, and
    /// machines without a sound card).
    case wavFiles(espeak: String, directory: String)

    /// speech-dispatcher when one runs (its socket exists), else espeak-ng; nil if neither
    /// program is installed.
    public static func detect(environment: [String: String]) -> Voice? {
      let spd = "/usr/bin/spd-say"
      let espeak = "/usr/bin/espeak-ng"
      let runtime = environment["XDG_RUNTIME_DIR"] ?? "/run/user/\(getuid())"
      let socket =
        environment["SPEECHD_ADDRESS"] != nil
        || FileManager.default.fileExists(atPath: "\(runtime)/speech-dispatcher/speechd.sock")
      if socket, FileManager.default.isExecutableFile(atPath: spd) { return .speechDispatcher(spd) }
      if FileManager.default.isExecutableFile(atPath: espeak) { return .espeak(espeak) }
      return nil
    }

    /// The program and arguments that say `text` (utterance `number`).
    func command(_ text: String, number: Int) -> (String, [String]) {
      switch self {
      case .speechDispatcher(let path): (path, ["--wait", "--", text])
      case .espeak(let path): (path, ["--", text])
      case .wavFiles(let path, let directory):
        (path, ["-w", "\(directory)/utterance-\(number).wav", "--", text])
      }
    }
  }

  /// What happened to an utterance, for logs and tests.
  public enum Event: Sendable, Equatable {
    /// Utterance `number` started as process `pid`.
    case started(number: Int, pid: Int32, text: String)
    /// It ended: exited with `status`, or was ended by `signal`.
    case finished(number: Int, status: Int32?, signal: Int32?)
  }

  private let voice: Voice
  /// The speech programs' environment as `NAME=value` entries; nil for the process's own.
  private let environment: [String]?
  private let logger: Logger
  private let onEvent: @Sendable (Event) -> Void
  private let condition = NSCondition()
  private var queue: [(number: Int, text: String)] = []
  private var current: (number: Int, pid: pid_t)?
  private var counter = 0
  private var stopped = false
  /// speech-dispatcher must be told to stop the text the interrupted `spd-say` handed it.
  private var cancelDaemon = false

  /// A speaker using `voice`, speaking on its own thread until ``stop()``; `onEvent` hears
  /// every start and end (on that thread). The speech programs run with `environment` (where
  /// `spd-say` finds its daemon: `XDG_RUNTIME_DIR`, `SPEECHD_ADDRESS`), or the process's own.
  public init(
    voice: Voice, environment: [String: String]? = nil,
    logger: Logger = Logger(label: "tenfoot.speech"),
    onEvent: @escaping @Sendable (Event) -> Void = { _ in }
  ) {
    self.voice = voice
    self.environment = environment?.map { "\($0.key)=\($0.value)" }
    self.logger = logger
    self.onEvent = onEvent
    // The thread holds the speaker until `stop()` ends it.
    let thread = Thread { self.run() }
    thread.name = "tenfoot-speech"
    thread.start()
  }

  /// Queues `announcement`; an interrupting one first ends what is being said and drops what
  /// waits. Returns the utterance's number.
  @discardableResult
  public func say(_ announcement: Announcement) -> Int {
    let text = announcement.text
    condition.lock()
    defer { condition.unlock() }
    if announcement.interrupt { interruptLocked() }
    counter += 1
    queue.append((counter, text))
    condition.signal()
    return counter
  }

  /// Ends the utterance going on and drops the queue; the thread ends. Safe to call twice.
  public func stop() {
    condition.lock()
    if !stopped {
      stopped = true
      interruptLocked()
      condition.signal()
    }
    condition.unlock()
  }

  /// With the lock held: drop the queue and end the current utterance.
  private func interruptLocked() {
    queue.removeAll()
    guard let current else { return }
    // The process is not reaped until `current` is cleared (under this lock), so the pid still
    // names it here even if it just exited.
    kill(current.pid, SIGTERM)
    // spd-say only hands the text to the daemon: the thread cancels what it is saying too.
    if case .speechDispatcher = voice { cancelDaemon = true }
    logger.debug("speech interrupted", metadata: ["speech.utterance": "\(current.number)"])
  }

  /// The speaker's thread: one utterance at a time, until stopped.
  private func run() {
    while true {
      condition.lock()
      while queue.isEmpty && !stopped { condition.wait() }
      if stopped {
        condition.unlock()
        return
      }
      let next = queue.removeFirst()
      let (path, arguments) = voice.command(next.text, number: next.number)
      guard let pid = spawn(path, arguments) else {
        condition.unlock()
        logger.warning("speech program did not start", metadata: ["speech.program": "\(path)"])
        continue
      }
      current = (next.number, pid)
      condition.unlock()
      onEvent(.started(number: next.number, pid: pid, text: next.text))
      // Wait for the exit without reaping, so an interrupt never signals a reused pid.
      var info = siginfo_t()
      _ = SystemCall.retryingInterrupts { waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) }
      condition.lock()
      current = nil
      let cancel = cancelDaemon
      cancelDaemon = false
      condition.unlock()
      var status: Int32 = 0
      _ = SystemCall.retryingInterrupts { waitpid(pid, &status, 0) }
      if cancel, case .speechDispatcher(let path) = voice, let canceller = spawn(path, ["--cancel"])
      {
        var ignored: Int32 = 0
        _ = SystemCall.retryingInterrupts { waitpid(canceller, &ignored, 0) }
      }
      let exited = status & 0x7F == 0
      logger.debug(
        "utterance finished",
        metadata: [
          "speech.utterance": "\(next.number)", "speech.text": "\(next.text)",
          "speech.status": exited ? "\((status >> 8) & 0xFF)" : "signal \(status & 0x7F)",
        ])
      onEvent(
        .finished(
          number: next.number, status: exited ? (status >> 8) & 0xFF : nil,
          signal: exited ? nil : status & 0x7F))
    }
  }

  /// Starts `path` with `arguments`, output discarded, no signal blocked or ignored (the
  /// screen blocks SIGTERM in its threads; a child must not inherit that); nil on failure.
  private func spawn(_ path: String, _ arguments: [String]) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor: Int32 in [0, 1, 2] {
      posix_spawn_file_actions_addopen(
        &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { $0.map { strdup($0) } + [nil] }
    defer { for pointer in argv + (envp ?? []) { free(pointer) } }
    var pid: pid_t = 0
    let result =
      if let envp {
        posix_spawn(&pid, path, &actions, &attributes, argv, envp)
      } else {
        posix_spawn(&pid, path, &actions, &attributes, argv, environ)
      }
    return result == 0 ? pid : nil
  }
}
