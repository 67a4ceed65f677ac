import Foundation
import TenFootProtocol
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
    case press(Tenfoot_V1_Key)
    /// Show the key help again.
    case help
    /// Enter or leave touch mode (arrows move a virtual finger on the touch surface).
    case toggleTouch
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
    case .end, .delete: nil
    case .character(let character):
      switch character {
      case "h", "H": .press(.home)
      case "p", "P": .press(.playPause)
      case "q", "Q": .quit
      case "?": .help
      case "t", "T": .toggleTouch
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
    ]
  }

  /// The touch-mode help line.
  static let touchHelp =
    "touch mode: arrows slide the finger 0.1 · Return clicks · Space lifts and lands again · t leaves"

  /// The virtual finger in touch mode, or nil outside it.
  private var finger: (x: Double, y: Double)?

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
    if RawTerminal.isTerminal(input) { try terminal.enter() }
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
    for key in keys {
      if finger != nil, key != .character("t"), key != .character("T"), key != .ctrlC {
        do {
          if let line = try touchKey(key) {
            try say([line])
            continue
          }
        } catch let error as RemoteError {
          try say(["error: \(error)"])
          if error.brokerUnreachable { throw error }
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
      case .press(let remoteKey):
        let result: PressResult
        do {
          result = try remote.press(remoteKey)
        } catch {
          try say(["error: \(error)"])
          if error.brokerUnreachable || error.notPaired { throw error }
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
      try say(["error: \(error)"])
      if error.brokerUnreachable { throw error }
    }
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
