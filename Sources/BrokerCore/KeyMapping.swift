import FocusEngine
import TenFootProtocol

/// How remote keys become engine events in this release.
enum KeyMapping {
  /// The engine event for a key event; `.success(nil)` for keys that carry no focus meaning
  /// yet (they are acknowledged and change nothing); `.failure` for invalid input.
  static func event(for key: Tenfoot_V1_KeyEvent) -> Result<FocusEvent?, KeyMappingError> {
    let down: Bool
    switch key.phase {
    case .down: down = true
    case .up: down = false
    case .unspecified, .UNRECOGNIZED:
      return .failure(KeyMappingError("key phase must be down or up"))
    }
    switch key.key {
    case .unspecified, .UNRECOGNIZED:
      return .failure(KeyMappingError("unknown key (\(key.key.rawValue))"))
    case .up: return .success(down ? .move(.up) : nil)
    case .down: return .success(down ? .move(.down) : nil)
    case .left: return .success(down ? .move(.left) : nil)
    case .right: return .success(down ? .move(.right) : nil)
    case .select: return .success(down ? .selectDown : .selectUp)
    case .tab: return .success(down ? .tab(.next) : nil)
    case .shiftTab: return .success(down ? .tab(.previous) : nil)
    case .menu, .home, .playPause, .pageUp, .pageDown, .volumeUp, .volumeDown, .mute, .power,
      .info:
      return .success(nil)
    }
  }
}

/// Why a key event is not valid input.
struct KeyMappingError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
