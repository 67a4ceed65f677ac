import FocusEngine
import Foundation
import TerminalUI
import ZeroMQ

/// The interactive remote: reads keys from the terminal in raw mode and presses the matching
/// remote keys over the one long-lived connection, printing what each press did.
///
/// Keys (as in DESIGN.md): arrows move; Return selects; Space is Play/Pause; Esc or Backspace
/// is Menu; Tab and Shift-Tab move
/// between groups; Page Up/Down; `h` or Home is Home; `p` is Play/Pause; `?` shows the keys
/// again; `q` or Ctrl-C quits. The terminal stays on the normal screen (the output is a log
/// of presses) and is restored on every way out: return, thrown error, or a fatal signal
/// (``RawTerminal``'s guard).
///
/// Pointer mode (on from the start on a terminal, `m` toggles it): the remote asks the
/// terminal for xterm mouse reports (any motion, SGR form) and the mouse is a pointing device
/// on the screen. The terminal window stands for the whole canvas: cell (column c, row r) of a
/// C × R terminal is the canvas point ((c − ½) / C × width, (r − ½) / R × height), the cell's
/// centre (``canvasPoint(column:row:columns:rows:canvas:)``); the canvas size comes from a
/// snapshot of the session. A motion moves the pointer (the broker focuses what it targets),
/// the left button clicks, the wheel scrolls 60 points a notch. Reporting is turned off on
/// `m`, on quitting and by the terminal guard.
public final class InteractiveRemote {
  private let remote: RemoteClient
  private let input: Int32
  private let output: Int32

  /// How long a lone ESC byte waits for the rest of an escape sequence before it counts as
  /// the Escape key. Sequences from a terminal arrive in one read; 30 ms is far below what a
  /// person notices.
  static let escapeTimeout: Duration = .milliseconds(30)

  /// Drives `remote` from standard input, writing to standard output.
  public init(remote: RemoteClient) {
    self.remote = remote
    input = STDIN_FILENO
    output = STDOUT_FILENO
  }

  /// What a key does in the interactive remote.
  public enum Action: Sendable, Equatable {
    /// Press this remote key.
    case press(RemoteButton)
    /// Show the key help again.
    case help
    /// Enter or leave touch mode (arrows move a virtual finger on the touch surface).
    case toggleTouch
    /// Turn pointer mode (the terminal's mouse as a pointing device) off or on.
    case toggleMouse
    /// Leave the interactive remote.
    case quit
  }

  /// The action for a key read from the terminal, or nil if the key does nothing.
  public static func action(for key: KeyPress) -> Action? {
    switch key {
    case .up: .press(.up)
    case .down: .press(.down)
    case .left: .press(.left)
    case .right: .press(.right)
    case .enter: .press(.select)
    case .space: .press(.playPause)
    case .escape, .backspace: .press(.menu)
    case .tab: .press(.tab)
    case .shiftTab: .press(.shiftTab)
    case .pageUp: .press(.pageUp)
    case .pageDown: .press(.pageDown)
    case .home: .press(.home)
    case .ctrlC: .quit
    case .end, .delete, .mouse: nil
    case .character(let character):
      switch character {
      case "h", "H": .press(.home)
      case "p", "P": .press(.playPause)
      case "q", "Q": .quit
      case "?": .help
      case "t", "T": .toggleTouch
      case "m", "M": .toggleMouse
      default: nil
      }
    }
  }

  /// The help header, one line per entry.
  static func help(screen: String) -> [String] {
    [
      "tenfoot-remote: driving screen \"\(screen)\"",
      "  arrows move · Return select · Esc/Backspace menu · Tab/Shift-Tab group",
      "  h home · Space/p play/pause · PgUp/PgDn page · t touch mode · ? keys · q/Ctrl-C quit",
      "  the mouse points (the window is the screen; click selects) · m mouse on/off",
    ]
  }

  /// The touch-mode help line.
  static let touchHelp =
    "touch mode: arrows slide the finger 0.1 · Return clicks · Space lifts and lands again · t leaves"

  /// The virtual finger in touch mode, or nil outside it.
  private var finger: (x: Double, y: Double)?
  /// Whether mouse reports are asked for (pointer mode).
  private var mouse = false
  /// The screen's canvas, asked for at the first mouse report.
  private var canvas: (width: Double, height: Double)?
  /// The focused item after the last pointer sample (moves print a line only on a change).
  private var pointerFocus: String?
  /// The wheel's scroll per notch, in canvas points.
  static let wheelStep = 60.0
  /// The canvas assumed when the broker gives no snapshot: the TV canvas.
  static let defaultCanvas = (width: 1920.0, height: 1080.0)

  /// The canvas point a terminal cell stands for: the terminal window is the whole canvas
  /// and a cell is its centre, clamped to the canvas.
  public static func canvasPoint(
    column: Int, row: Int, columns: Int, rows: Int, canvas: (width: Double, height: Double)
  ) -> (x: Double, y: Double) {
    let x = (Double(column) - 0.5) / Double(max(1, columns)) * canvas.width
    let y = (Double(row) - 0.5) / Double(max(1, rows)) * canvas.height
    return (min(canvas.width, max(0, x)), min(canvas.height, max(0, y)))
  }

  /// Sends a mouse report as a pointer sample; returns the line to print, if any.
  private func pointerReport(_ report: MouseReport) throws(RemoteError) -> String? {
    if canvas == nil {
      canvas = (try? remote.canvas()) ?? Self.defaultCanvas
    }
    let size =
      RawTerminal.terminalSize(output) ?? RawTerminal.terminalSize(input) ?? (80, 24)
    let point = Self.canvasPoint(
      column: report.column, row: report.row, columns: size.columns, rows: size.rows,
      canvas: canvas ?? Self.defaultCanvas)
    let held: UInt32 = report.button == .left ? 1 : 0
    let result: PressResult
    switch report.action {
    case .motion:
      result = try remote.pointer(.moved, x: point.x, y: point.y, buttons: held)
      defer { pointerFocus = result.focused }
      guard result.focused != pointerFocus else { return nil }
    case .press:
      guard report.button == .left else { return nil }
      result = try remote.pointer(.down, x: point.x, y: point.y, buttons: 1)
    case .release:
      guard report.button == .left else { return nil }
      result = try remote.pointer(.up, x: point.x, y: point.y)
    case .wheelUp, .wheelDown:
      let step = report.action == .wheelUp ? -Self.wheelStep : Self.wheelStep
      result = try remote.pointer(.scroll, x: 0, y: step)
      guard !result.effects.isEmpty else { return nil }
    }
    pointerFocus = result.focused
    return "mouse \(result.line) · at \(Int(point.x.rounded())), \(Int(point.y.rounded()))"
      + " (cell \(report.column), \(report.row))"
  }

  /// Turns pointer mode off or on: mouse reporting off or on in the terminal.
  private func toggleMouse() throws {
    mouse.toggle()
    do {
      try TerminalOutput.write(
        mouse ? RawTerminal.enableMouseReporting : RawTerminal.disableMouseReporting,
        to: output)
    } catch {
      throw RemoteError.terminal(error)
    }
    try say([mouse ? "mouse on: the mouse points" : "mouse off"])
  }

  /// Handles a key in touch mode; returns false if the key is not a touch-mode key.
  private func touchKey(_ key: KeyPress) throws(RemoteError) -> String? {
    guard var point = finger else { return nil }
    let step = 0.1
    switch key {
    case .left: point.x = max(-1, point.x - step)
    case .right: point.x = min(1, point.x + step)
    case .up: point.y = max(-1, point.y - step)
    case .down: point.y = min(1, point.y + step)
    case .enter: return try remote.perform(.click).line
    case .space:
      let lifted = try remote.touch(.ended, x: point.x, y: point.y)
      finger = (0, 0)
      _ = try remote.touch(.began, x: 0, y: 0)
      return "lift: \(lifted.line) · finger back at (0.00, 0.00)"
    default: return nil
    }
    finger = point
    let result = try remote.touch(.moved, x: point.x, y: point.y)
    return "\(result.line) · finger at \(Self.format(point.x)), \(Self.format(point.y))"
  }

  private static func format(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let magnitude = abs(hundredths)
    return "\(sign)\(magnitude / 100).\(magnitude % 100 < 10 ? "0" : "")\(magnitude % 100)"
  }

  /// Runs until `q`, Ctrl-C or the end of input. Press failures are printed and the loop goes
  /// on, except when the broker is gone: then the terminal is restored and the error thrown.
  public func run() throws {
    let terminal = RawTerminal(fileDescriptor: input)
    // Raw mode needs a terminal; from a pipe, keys are read as they come (no raw mode).
    if RawTerminal.isTerminal(input) {
      try terminal.enter(.reportsMouse)
      mouse = true
    }
    defer { terminal.restore() }

    try say(Self.help(screen: remote.screen))
    let loop = try EventLoop()
    let stopper = loop.stopper
    var decoder = KeyDecoder()
    var escapeTimer: EventLoop.TimerID?
    var buffer = [UInt8](repeating: 0, count: 256)
    loop.whenReadable(fileDescriptor: input) { [unowned self, unowned loop] in
      if let escapeTimer { loop.cancel(escapeTimer) }
      escapeTimer = nil
      let count = read(input, &buffer, buffer.count)
      guard count >= 0 else {
        // Interrupted, or nothing to read after all: the loop polls the terminal again.
        if errno == EINTR || errno == EAGAIN { return }
        throw RemoteError.keyboard(errno: errno)
      }
      let keys = count == 0 ? decoder.flush() : decoder.feed(buffer[0..<count])
      if try !perform(keys) || count == 0 {
        stopper.stop()
        return
      }
      guard decoder.hasPendingEscape else { return }
      // A lone ESC is the Escape key once nothing follows it in time.
      escapeTimer = loop.schedule(after: Self.escapeTimeout) { [unowned self] in
        escapeTimer = nil
        if try !perform(decoder.flush()) { stopper.stop() }
      }
    }
    try loop.run()
  }

  /// Acts on `keys` in order; returns false when one of them quits.
  private func perform(_ keys: [KeyPress]) throws -> Bool {
    for (index, key) in keys.enumerated() {
      if case .mouse(let report) = key {
        // Of motions read together only the last is sent: the pointer is where the mouse is.
        if report.action == .motion, index + 1 < keys.count,
          case .mouse(let next) = keys[index + 1], next.action == .motion
        {
          continue
        }
        guard mouse else { continue }
        do {
          if let line = try pointerReport(report) { try say([line]) }
        } catch let error as RemoteError {
          try failed(error)
        }
        continue
      }
      if finger != nil, key != .character("t"), key != .character("T"), key != .ctrlC {
        do {
          if let line = try touchKey(key) {
            try say([line])
            continue
          }
        } catch let error as RemoteError {
          try failed(error)
          continue
        }
      }
      guard let action = Self.action(for: key) else { continue }
      switch action {
      case .quit:
        return false
      case .help:
        try say(Self.help(screen: remote.screen))
      case .toggleTouch:
        try toggleTouch()
      case .toggleMouse:
        try toggleMouse()
      case .press(let remoteKey):
        let result: PressResult
        do {
          result = try remote.press(remoteKey)
        } catch {
          try failed(error)
          continue
        }
        try say([result.line])
      }
    }
    return true
  }

  /// Enters touch mode (the finger lands in the middle) or leaves it (the finger lifts).
  private func toggleTouch() throws {
    do {
      if let point = finger {
        finger = nil
        let result = try remote.touch(.ended, x: point.x, y: point.y)
        try say(["touch mode off: \(result.line)"])
      } else {
        finger = (0, 0)
        _ = try remote.touch(.began, x: 0, y: 0)
        try say([Self.touchHelp, "finger at 0.00, 0.00"])
      }
    } catch let error as RemoteError {
      try failed(error)
    }
  }

  /// Prints a failed press and goes on, or throws `error` when the session cannot go on (the
  /// broker is gone, or no longer accepts this remote's key). A thrown error is not printed
  /// here: the command line prints it once, after the terminal is restored.
  private func failed(_ error: RemoteError) throws {
    if error.endsSession { throw error }
    try say(["error: \(error)"])
  }

  /// Writes `lines`, each ending in CR LF (raw mode turns off the terminal's own `\n` →
  /// `\r\n`), through the terminal filter: what the broker says is shown, never obeyed.
  private func say(_ lines: [String]) throws {
    do {
      let text = lines.map { TerminalText.printable($0, newlines: true) }.joined(separator: "\n")
      try TerminalOutput.write(
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "\r\n" }
          .joined(), to: output)
    } catch {
      throw RemoteError.terminal(error)
    }
  }
}
