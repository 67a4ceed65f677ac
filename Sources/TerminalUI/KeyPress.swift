/// A key read from a terminal in raw mode.
public enum KeyPress: Sendable, Hashable {
  /// Arrow up.
  case up
  /// Arrow down.
  case down
  /// Arrow left.
  case left
  /// Arrow right.
  case right
  /// Return or Enter (CR or LF).
  case enter
  /// Tab.
  case tab
  /// Shift-Tab (`ESC[Z`).
  case shiftTab
  /// Backspace (DEL 0x7F or BS 0x08).
  case backspace
  /// A lone Escape.
  case escape
  /// The space bar.
  case space
  /// Ctrl-C (0x03; only seen as a byte when `ISIG` is off).
  case ctrlC
  /// Page Up (`ESC[5~`).
  case pageUp
  /// Page Down (`ESC[6~`).
  case pageDown
  /// Home (`ESC[H`, `ESCOH`, `ESC[1~`, `ESC[7~`).
  case home
  /// End (`ESC[F`, `ESCOF`, `ESC[4~`, `ESC[8~`).
  case end
  /// Forward delete (`ESC[3~`).
  case delete
  /// A printable character other than space.
  case character(Character)
  /// A mouse report (xterm SGR form, `ESC[<b;x;yM` or `…m`), sent while mouse reporting is
  /// on (``RawTerminal/Options/reportsMouse``).
  case mouse(MouseReport)
}

/// One xterm SGR (mode 1006) mouse report: what the mouse did and at which cell.
public struct MouseReport: Sendable, Hashable {
  /// What happened.
  public enum Action: Sendable, Hashable {
    /// A button went down.
    case press
    /// A button went up.
    case release
    /// The mouse moved (with `button` held, or ``Button/none``).
    case motion
    /// The wheel turned one notch up.
    case wheelUp
    /// The wheel turned one notch down.
    case wheelDown
  }

  /// Which button.
  public enum Button: Sendable, Hashable {
    case left, middle, right, none
  }

  /// What happened.
  public var action: Action
  /// The button pressed, released or held during a motion.
  public var button: Button
  /// The cell's column, 1 at the left edge.
  public var column: Int
  /// The cell's row, 1 at the top edge.
  public var row: Int

  /// Creates a report.
  public init(_ action: Action, button: Button, column: Int, row: Int) {
    self.action = action
    self.button = button
    self.column = column
    self.row = row
  }

  /// The report of an SGR sequence's parameters `b;x;y` and final byte (`M` press or motion,
  /// `m` release); nil if malformed. Bits of `b`: 0–1 the button (3: none), 2–4 the
  /// modifiers (ignored), 5 motion, 6 the wheel (button 0 up, 1 down; 2 and 3, horizontal
  /// wheels, are dropped).
  public init?(sgr parameters: String, released: Bool) {
    let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map {
      Int($0)
    }
    guard numbers.count == 3, let code = numbers[0], let column = numbers[1],
      let row = numbers[2], code >= 0, column >= 1, row >= 1
    else { return nil }
    let low = code & 0b11
    if code & 64 != 0 {
      guard low < 2, !released else { return nil }
      self.init(low == 0 ? .wheelUp : .wheelDown, button: .none, column: column, row: row)
      return
    }
    let button: Button = [.left, .middle, .right, .none][low]
    let action: Action = code & 32 != 0 ? .motion : released ? .release : .press
    self.init(action, button: button, column: column, row: row)
  }
}
