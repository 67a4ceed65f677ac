import Glibc
import SystemCalls

/// A terminal put into raw mode, optionally on the alternate screen with the cursor hidden,
/// and put back exactly as it was by ``restore()`` — or, if the process dies first, by a
/// signal and `atexit` guard (see ``TerminalGuard``).
///
/// Raw mode is `cfmakeraw` with one deliberate choice made explicit: output post-processing
/// (`OPOST`, which turns `\n` into `\r\n`) is off, so every writer must send `\r\n` itself
/// and cursor-addressed output is byte-exact. With ``Options/keepsSignalKeys`` Ctrl-C and
/// Ctrl-\ still raise SIGINT and SIGQUIT (`ISIG` stays on), for programs that draw but do not
/// read keys.
///
/// Not thread-safe: one owner, normally the process's loop thread.
public final class RawTerminal {
  /// What ``enter(_:)`` does besides raw mode.
  public struct Options: OptionSet, Sendable {
    /// The bits.
    public let rawValue: Int
    /// Creates options from bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Switch to the alternate screen buffer (`ESC[?1049h`), leaving the shell's screen intact.
    public static let alternateScreen = Options(rawValue: 1 << 0)
    /// Hide the cursor (`ESC[?25l`).
    public static let hideCursor = Options(rawValue: 1 << 1)
    /// Keep `ISIG`: Ctrl-C, Ctrl-\ and Ctrl-Z still send signals instead of bytes.
    public static let keepsSignalKeys = Options(rawValue: 1 << 2)
    /// Ask for xterm mouse reports: every motion (mode 1003) in SGR form (mode 1006), read as
    /// ``KeyPress/mouse(_:)``; turned off again on restore, by the guard too.
    public static let reportsMouse = Options(rawValue: 1 << 3)
  }

  /// Enter the alternate screen buffer.
  public static let enterAlternateScreen = "\u{1B}[?1049h"
  /// Leave the alternate screen buffer.
  public static let leaveAlternateScreen = "\u{1B}[?1049l"
  /// Hide the cursor.
  public static let hideCursorSequence = "\u{1B}[?25l"
  /// Show the cursor.
  public static let showCursorSequence = "\u{1B}[?25h"
  /// Turn on mouse reporting: any motion (1003), in SGR form (1006).
  public static let enableMouseReporting = "\u{1B}[?1003h\u{1B}[?1006h"
  /// Turn mouse reporting off again.
  public static let disableMouseReporting = "\u{1B}[?1006l\u{1B}[?1003l"
  /// Reset all character attributes.
  public static let resetAttributes = "\u{1B}[0m"

  /// The terminal's file descriptor (not owned: never closed here).
  public let fileDescriptor: Int32
  private var original: termios?
  private var options: Options = []
  private var guardToken: Int32 = 0

  /// Wraps `fileDescriptor`; nothing changes until ``enter(_:)``.
  public init(fileDescriptor: Int32) {
    self.fileDescriptor = fileDescriptor
  }

  deinit { restore() }

  /// Whether ``enter(_:)`` has taken effect and ``restore()`` has not yet run.
  public var isActive: Bool { original != nil }

  /// Whether `fd` refers to a terminal.
  public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

  /// The terminal's size in character cells (`TIOCGWINSZ`), or nil if `fd` is not a terminal
  /// or reports a zero size.
  public static func terminalSize(_ fd: Int32) -> (columns: Int, rows: Int)? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
      return nil
    }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// The raw-mode version of `settings`: `cfmakeraw` with `OPOST` off, reads that return as
  /// soon as one byte is there, and `ISIG` kept if `keepsSignalKeys`.
  public static func rawSettings(from settings: termios, keepsSignalKeys: Bool) -> termios {
    var raw = settings
    raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
    raw.c_oflag &= ~tcflag_t(OPOST)
    var local = tcflag_t(ECHO | ECHONL | ICANON | IEXTEN)
    if !keepsSignalKeys { local |= tcflag_t(ISIG) }
    raw.c_lflag &= ~local
    raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { characters in
      characters[Int(VMIN)] = 1
      characters[Int(VTIME)] = 0
    }
    return raw
  }

  /// Saves the current settings, switches to raw mode, applies `options`, and arms the guard
  /// that restores the terminal if the process is killed by a signal or exits without
  /// ``restore()``. Calling it again while active does nothing. Throws `TerminalError` if the
  /// descriptor is not a terminal or its settings cannot be changed.
  public func enter(_ options: Options = []) throws(TerminalError) {
    guard original == nil else { return }
    var saved = termios()
    guard tcgetattr(fileDescriptor, &saved) == 0 else {
      throw TerminalError.fromErrno(
        "tcgetattr", "file descriptor \(fileDescriptor) is not a terminal")
    }
    var raw = Self.rawSettings(
      from: saved, keepsSignalKeys: options.contains(.keepsSignalKeys))
    // Arm first: from the moment the settings change, a crash puts them back.
    let restoreBytes = Array(Self.restoreSequence(for: options).utf8)
    guardToken = TerminalGuard.arm(fd: fileDescriptor, settings: saved, restoreBytes: restoreBytes)
    let result = SystemCall.retryingInterrupts { tcsetattr(fileDescriptor, TCSADRAIN, &raw) }
    guard result == 0 else {
      let error = TerminalError.fromErrno("tcsetattr", "cannot switch the terminal to raw mode")
      TerminalGuard.disarm(token: guardToken)
      throw error
    }
    original = saved
    self.options = options
    var setup = ""
    if options.contains(.alternateScreen) { setup += Self.enterAlternateScreen }
    if options.contains(.hideCursor) { setup += Self.hideCursorSequence }
    if options.contains(.reportsMouse) { setup += Self.enableMouseReporting }
    if !setup.isEmpty {
      do {
        try TerminalOutput.write(setup, to: fileDescriptor)
      } catch {
        restore()
        throw error
      }
    }
  }

  /// The bytes that undo `options`: reset attributes, show the cursor, leave the alternate
  /// screen. Written by ``restore()`` and, pre-rendered, by the signal guard.
  public static func restoreSequence(for options: Options) -> String {
    var sequence = resetAttributes
    if options.contains(.reportsMouse) { sequence += disableMouseReporting }
    if options.contains(.hideCursor) { sequence += showCursorSequence }
    if options.contains(.alternateScreen) { sequence += leaveAlternateScreen }
    return sequence
  }

  /// Undoes ``enter(_:)``: writes the restore sequence, puts the saved settings back and
  /// disarms the guard. Idempotent; errors are ignored (there is nothing better to do while
  /// giving the terminal back).
  public func restore() {
    guard var saved = original else { return }
    original = nil
    try? TerminalOutput.write(Self.restoreSequence(for: options), to: fileDescriptor)
    _ = SystemCall.retryingInterrupts { tcsetattr(fileDescriptor, TCSADRAIN, &saved) }
    TerminalGuard.disarm(token: guardToken)
    options = []
  }
}
