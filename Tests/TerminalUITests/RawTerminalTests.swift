import Glibc
import Testing

@testable import TerminalUI

/// A pseudo-terminal pair, closed on deinit.
final class PseudoTerminal {
  let controller: Int32
  let terminal: Int32

  init() throws {
    var controller: Int32 = -1
    var terminal: Int32 = -1
    guard openpty(&controller, &terminal, nil, nil, nil) == 0 else {
      throw TerminalError.fromErrno("openpty", "cannot open a pseudo-terminal")
    }
    self.controller = controller
    self.terminal = terminal
    // Non-blocking, so reading back what was written never waits.
    _ = fcntl(controller, F_SETFL, fcntl(controller, F_GETFL) | O_NONBLOCK)
  }

  deinit {
    close(controller)
    close(terminal)
  }

  func settings() -> termios {
    var settings = termios()
    _ = tcgetattr(terminal, &settings)
    return settings
  }

  /// Everything written to the terminal side so far.
  func output() -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(controller, &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

@Suite("Raw terminal and signals on a real pty", .serialized)
struct RawTerminalTests {
  static func has(_ flags: tcflag_t, _ flag: Int32) -> Bool { flags & tcflag_t(flag) != 0 }

  @Test("enter switches to raw mode; restore brings every flag back, once")
  func rawModeRoundTrip() throws {
    let pty = try PseudoTerminal()
    let original = pty.settings()
    #expect(Self.has(original.c_lflag, ICANON) && Self.has(original.c_lflag, ECHO))

    let terminal = RawTerminal(fileDescriptor: pty.terminal)
    try terminal.enter([.alternateScreen, .hideCursor])
    #expect(terminal.isActive)
    #expect(TerminalGuard.isArmed)
    let raw = pty.settings()
    #expect(!Self.has(raw.c_lflag, ICANON))
    #expect(!Self.has(raw.c_lflag, ECHO))
    #expect(!Self.has(raw.c_lflag, ISIG))
    #expect(!Self.has(raw.c_oflag, OPOST))
    #expect(!Self.has(raw.c_iflag, ICRNL))
    #expect(pty.output() == "\u{1B}[?1049h\u{1B}[?25l")

    terminal.restore()
    terminal.restore()
    #expect(!terminal.isActive)
    #expect(!TerminalGuard.isArmed)
    let restored = pty.settings()
    #expect(restored.c_lflag == original.c_lflag)
    #expect(restored.c_iflag == original.c_iflag)
    #expect(restored.c_oflag == original.c_oflag)
    #expect(restored.c_cflag == original.c_cflag)
    #expect(pty.output() == "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
  }

  @Test("keepsSignalKeys leaves ISIG on; the size comes from TIOCGWINSZ")
  func signalKeysAndSize() throws {
    let pty = try PseudoTerminal()
    var size = winsize(ws_row: 33, ws_col: 101, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(pty.terminal, UInt(TIOCSWINSZ), &size)
    let reported = RawTerminal.terminalSize(pty.terminal)
    #expect(reported?.columns == 101 && reported?.rows == 33)
    let terminal = RawTerminal(fileDescriptor: pty.terminal)
    try terminal.enter(.keepsSignalKeys)
    #expect(Self.has(pty.settings().c_lflag, ISIG))
    #expect(!Self.has(pty.settings().c_lflag, ICANON))
    terminal.restore()
  }

  @Test("the guard's emergency restore puts the settings back and writes the restore bytes")
  func emergencyRestore() throws {
    let pty = try PseudoTerminal()
    let original = pty.settings()
    let terminal = RawTerminal(fileDescriptor: pty.terminal)
    try terminal.enter([.alternateScreen, .hideCursor])
    _ = pty.output()
    TerminalGuard.emergencyRestore()  // what the signal handler and atexit do
    #expect(pty.settings().c_lflag == original.c_lflag)
    #expect(pty.output() == "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
    #expect(!TerminalGuard.isArmed)
    terminal.restore()
  }

  @Test("the guard leaves a program's own SIGINT handler alone and takes default signals")
  func guardRespectsHandlers() throws {
    let pty = try PseudoTerminal()
    let previousInterrupt = signal(SIGINT, SIG_IGN)
    let previousHangUp = signal(SIGHUP, SIG_DFL)
    defer {
      signal(SIGINT, previousInterrupt)
      signal(SIGHUP, previousHangUp)
    }
    let terminal = RawTerminal(fileDescriptor: pty.terminal)
    try terminal.enter()
    var current = sigaction()
    sigaction(SIGINT, nil, &current)
    #expect(unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1)  // SIG_IGN
    #expect(!TerminalGuard.installed[Int(SIGINT)])
    #expect(TerminalGuard.installed[Int(SIGHUP)])
    #expect(TerminalGuard.installed[Int(SIGSEGV)])
    terminal.restore()
    #expect(!TerminalGuard.installed[Int(SIGHUP)])
    #expect(!TerminalGuard.installed[Int(SIGSEGV)])
    sigaction(SIGHUP, nil, &current)
    #expect(isDefault(current))
  }

  @Test("a non-terminal descriptor is refused")
  func notATerminal() throws {
    var ends: [Int32] = [-1, -1]
    #expect(pipe(&ends) == 0)
    defer { ends.forEach { _ = close($0) } }
    #expect(!RawTerminal.isTerminal(ends[0]))
    #expect(RawTerminal.terminalSize(ends[0]) == nil)
    #expect(throws: TerminalError.self) { try RawTerminal(fileDescriptor: ends[0]).enter() }
    #expect(!TerminalGuard.isArmed)
  }

  @Test("SIGWINCH becomes a readable byte on the signal pipe")
  func signalPipe() throws {
    let pipe = try SignalPipe(signals: [SIGWINCH])
    #expect(pipe.drain().isEmpty)
    // kill, not raise: a process-directed signal reaches whichever thread does not block it
    // (the test runner's worker threads block signals). Delivery is asynchronous, so wait for
    // the pipe with a deadline.
    kill(getpid(), SIGWINCH)
    kill(getpid(), SIGWINCH)
    var ready = pollfd(fd: pipe.fileDescriptor, events: Int16(POLLIN), revents: 0)
    #expect(poll(&ready, 1, 5_000) == 1)
    #expect(pipe.drain() == [SIGWINCH])
    #expect(pipe.drain().isEmpty)
    pipe.close()
    pipe.close()
  }
}
