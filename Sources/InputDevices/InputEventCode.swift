/// Event types and codes of the Linux input layer, with the kernel's numbers
/// (`linux/input-event-codes.h`), and the names the mapping file uses for them.
public enum InputEventCode {
  /// `EV_SYN`: frame boundaries (`SYN_REPORT`) and `SYN_DROPPED`.
  public static let evSyn: UInt16 = 0x00
  /// `EV_KEY`: keys and buttons; value 1 down, 0 up, 2 the kernel's autorepeat.
  public static let evKey: UInt16 = 0x01
  /// `EV_REL`: relative axes (mice, wheels).
  public static let evRel: UInt16 = 0x02
  /// `EV_ABS`: absolute axes (sticks, hats, touch).
  public static let evAbs: UInt16 = 0x03
  /// `EV_MSC`: miscellaneous (`MSC_SCAN` scan codes).
  public static let evMsc: UInt16 = 0x04
  /// `EV_SW`: switches.
  public static let evSw: UInt16 = 0x05
  /// `EV_LED`: LEDs.
  public static let evLed: UInt16 = 0x11
  /// `EV_REP`: autorepeat settings.
  public static let evRep: UInt16 = 0x14
  /// The highest event type (`EV_MAX`).
  public static let evMax: UInt16 = 0x1f

  /// `SYN_REPORT`.
  public static let synReport: UInt16 = 0
  /// `SYN_DROPPED`: the kernel's buffer overran; the device's state must be re-read.
  public static let synDropped: UInt16 = 3

  /// `KEY_ESC`.
  public static let keyEsc: UInt16 = 1
  /// `KEY_TAB`.
  public static let keyTab: UInt16 = 15
  /// `KEY_ENTER`.
  public static let keyEnter: UInt16 = 28
  /// `KEY_SPACE`.
  public static let keySpace: UInt16 = 57
  /// `KEY_UP`.
  public static let keyUp: UInt16 = 103
  /// `KEY_LEFT`.
  public static let keyLeft: UInt16 = 105
  /// `KEY_RIGHT`.
  public static let keyRight: UInt16 = 106
  /// `KEY_DOWN`.
  public static let keyDown: UInt16 = 108
  /// `KEY_A`: the first letter key (keyboard-like devices have it).
  public static let keyA: UInt16 = 30
  /// `KEY_OK`.
  public static let keyOK: UInt16 = 0x160
  /// `KEY_SELECT`.
  public static let keySelect: UInt16 = 0x161
  /// `KEY_PLAYPAUSE`.
  public static let keyPlayPause: UInt16 = 164
  /// `BTN_LEFT`: a mouse's or touchpad's (physical) left button.
  public static let btnLeft: UInt16 = 0x110
  /// `BTN_TOOL_FINGER`: a touchpad reports a finger (touchscreens do not).
  public static let btnToolFinger: UInt16 = 0x145
  /// `BTN_TOUCH`: something touches the surface.
  public static let btnTouch: UInt16 = 0x14a
  /// `BTN_SOUTH` (`BTN_A`): the gamepad specification's south face button.
  public static let btnSouth: UInt16 = 0x130
  /// `BTN_EAST`.
  public static let btnEast: UInt16 = 0x131
  /// `BTN_START`.
  public static let btnStart: UInt16 = 0x13b
  /// `BTN_DPAD_UP`.
  public static let btnDpadUp: UInt16 = 0x220

  /// `REL_X`: a mouse's horizontal motion, counts.
  public static let relX: UInt16 = 0x00
  /// `REL_Y`: a mouse's vertical motion (down is positive).
  public static let relY: UInt16 = 0x01
  /// `REL_HWHEEL`: a mouse's horizontal wheel, notches (right is positive).
  public static let relHWheel: UInt16 = 0x06
  /// `REL_WHEEL`: a mouse's wheel, notches (away from the user, scrolling up, is positive).
  public static let relWheel: UInt16 = 0x08

  /// `ABS_X`: the left stick's horizontal axis on a gamepad.
  public static let absX: UInt16 = 0x00
  /// `ABS_Y`: the left stick's vertical axis (down is positive).
  public static let absY: UInt16 = 0x01
  /// `ABS_HAT0X`: the D-pad as a hat, −1 left, 1 right.
  public static let absHat0X: UInt16 = 0x10
  /// `ABS_HAT0Y`: the D-pad as a hat, −1 up, 1 down.
  public static let absHat0Y: UInt16 = 0x11

  /// `EV_KEY` codes by their kernel names, for the mapping file and log lines: the keys a
  /// keyboard, a media remote (consumer control, rc-core) or a gamepad sends that a TV remote
  /// can use.
  public static let keyNames: [String: UInt16] = [
    "KEY_ESC": 1, "KEY_BACKSPACE": 14, "KEY_TAB": 15, "KEY_ENTER": 28, "KEY_SPACE": 57,
    "KEY_KPENTER": 96, "KEY_HOME": 102, "KEY_UP": 103, "KEY_PAGEUP": 104, "KEY_LEFT": 105,
    "KEY_RIGHT": 106, "KEY_END": 107, "KEY_DOWN": 108, "KEY_PAGEDOWN": 109, "KEY_MUTE": 113,
    "KEY_VOLUMEDOWN": 114, "KEY_VOLUMEUP": 115, "KEY_POWER": 116, "KEY_MENU": 139,
    "KEY_BACK": 158, "KEY_PLAYPAUSE": 164, "KEY_HOMEPAGE": 172, "KEY_EXIT": 174,
    "KEY_PLAY": 207, "KEY_PAUSE": 119, "KEY_PLAYCD": 200, "KEY_PAUSECD": 201,
    "KEY_OK": 0x160, "KEY_SELECT": 0x161, "KEY_INFO": 0x166, "KEY_TV": 0x179,
    "KEY_CHANNELUP": 0x192, "KEY_CHANNELDOWN": 0x193,
    "BTN_SOUTH": 0x130, "BTN_EAST": 0x131, "BTN_NORTH": 0x133, "BTN_WEST": 0x134,
    "BTN_TL": 0x136, "BTN_TR": 0x137, "BTN_SELECT": 0x13a, "BTN_START": 0x13b,
    "BTN_MODE": 0x13c, "BTN_DPAD_UP": 0x220, "BTN_DPAD_DOWN": 0x221, "BTN_DPAD_LEFT": 0x222,
    "BTN_DPAD_RIGHT": 0x223,
  ]

  /// `EV_ABS` codes by their kernel names.
  public static let absoluteAxisNames: [String: UInt16] = [
    "ABS_X": 0x00, "ABS_Y": 0x01, "ABS_Z": 0x02, "ABS_RX": 0x03, "ABS_RY": 0x04, "ABS_RZ": 0x05,
    "ABS_HAT0X": 0x10, "ABS_HAT0Y": 0x11,
  ]

  /// The kernel name of an `EV_KEY` code, or `0x…` for a code without one here.
  public static func keyName(_ code: UInt16) -> String {
    keyNamesByCode[code] ?? "0x" + String(code, radix: 16)
  }

  private static let keyNamesByCode: [UInt16: String] = Dictionary(
    keyNames.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
}
