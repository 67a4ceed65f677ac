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
}
