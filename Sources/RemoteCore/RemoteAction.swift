import FocusEngine

/// One thing a remote can do: a command on the command line, or a line of a script.
public enum RemoteAction: Sendable, Equatable {
  /// Press and release a key.
  case press(RemoteButton)
  /// Hold a key down for a while (arrows repeat, select opens the context menu).
  case hold(RemoteButton, for: Duration)
  /// Two quick presses.
  case double(RemoteButton)
  /// A swipe on the touch surface, drifting `drift` units across its direction.
  case swipe(Direction, velocity: Double, distance: Double, drift: Double)
  /// Touch, slide to a point over `duration`, rest for `rest`, lift: tilts the focused item.
  case drag(x: Double, y: Double, duration: Duration, rest: Duration = RemoteAction.dragRest)
  /// A click on the touch surface (select).
  case click
  /// Type into the focused text field.
  case type(String)
  /// A pointing device's motion or click (canvas points).
  case point(PointerMotion)

  /// How long a drag rests at its end before lifting.
  public static let dragRest = Duration.milliseconds(300)
  /// How far a swipe travels unless told, surface units.
  public static let swipeDistance = 1.2

  /// A swipe with its ranges checked: `velocity` above 0, `distance` in (0, 2] (the surface is
  /// 2 units wide), `drift` in [−1, 1]. The command line and the script grammar both make
  /// swipes here.
  public static func swipe(
    toward direction: Direction, velocity: Double = SwipeSpeed.medium.velocity,
    distance: Double = swipeDistance, drift: Double = 0
  ) throws(RemoteError) -> RemoteAction {
    guard velocity.isFinite, velocity > 0 else {
      throw RemoteError.invalidCommand(
        problem: "swipe: the velocity is above 0 units per second, not \(velocity)")
    }
    guard distance.isFinite, distance > 0, distance <= 2 else {
      throw RemoteError.invalidCommand(
        problem: "swipe: the distance is above 0 and at most 2 units, not \(distance)")
    }
    guard drift.isFinite, abs(drift) <= 1 else {
      throw RemoteError.invalidCommand(
        problem: "swipe: the drift is between -1 and 1 units, not \(drift)")
    }
    return .swipe(direction, velocity: velocity, distance: distance, drift: drift)
  }

  /// `swipe DIRECTION [slow|medium|fast|v=V] [d=D] [drift=D]`, the words after `swipe`.
  private static func parseSwipe(_ words: [String]) throws(RemoteError) -> RemoteAction {
    guard let word = words.first, let direction = Direction(rawValue: word) else {
      throw RemoteError.invalidCommand(problem: "swipe takes a direction: left, right, up or down")
    }
    var velocity = SwipeSpeed.medium.velocity
    var distance = swipeDistance
    var drift = 0.0
    for word in words.dropFirst() {
      if let named = SwipeSpeed(rawValue: word) {
        velocity = named.velocity
      } else if word.hasPrefix("v="), let value = Double(word.dropFirst(2)) {
        velocity = value
      } else if word.hasPrefix("d="), let value = Double(word.dropFirst(2)) {
        distance = value
      } else if word.hasPrefix("drift="), let value = Double(word.dropFirst(6)) {
        drift = value
      } else {
        throw RemoteError.invalidCommand(
          problem:
            "swipe: unknown \"\(word)\" (slow, medium, fast, v=UNITS_PER_S, d=UNITS up to 2, drift=UNITS up to 1)"
        )
      }
    }
    return try swipe(toward: direction, velocity: velocity, distance: distance, drift: drift)
  }

  /// Parses the words of one command (`hold right 2s`, `swipe left fast`, `drag 0.2,0`,
  /// `type "hello"`, `right`): the same grammar for scripts and the interactive prompt.
  public static func parse(_ words: [String]) throws(RemoteError) -> RemoteAction {
    guard let verb = words.first else { throw RemoteError.invalidCommand(problem: "empty command") }
    let rest = Array(words.dropFirst())
    func key(_ name: String?) throws(RemoteError) -> RemoteButton {
      guard let name, let key = RemoteButton(name: name) else {
        throw RemoteError.invalidCommand(
          problem:
            "unknown key \"\(name ?? "")\" (keys: \(RemoteButton.canonicalNames.joined(separator: ", ")))"
        )
      }
      return key
    }
    switch verb {
    case "press":
      guard rest.count == 1 else {
        throw RemoteError.invalidCommand(problem: "press takes one key")
      }
      return .press(try key(rest.first))
    case "hold":
      guard rest.count == 1 || rest.count == 2 else {
        throw RemoteError.invalidCommand(
          problem: "hold takes a key and a duration, like: hold right 2s")
      }
      let length = rest.count == 2 ? try duration(rest[1]) : .seconds(1)
      return .hold(try key(rest.first), for: length)
    case "double":
      guard rest.count == 1 else {
        throw RemoteError.invalidCommand(problem: "double takes one key")
      }
      return .double(try key(rest.first))
    case "swipe":
      return try parseSwipe(rest)
    case "drag":
      guard let target = rest.first else {
        throw RemoteError.invalidCommand(problem: "drag takes a point, like 0.2,0")
      }
      let point = try self.point(target)
      let sliding = rest.count > 1 ? try duration(rest[1]) : .milliseconds(250)
      let resting = rest.count > 2 ? try duration(rest[2]) : dragRest
      return .drag(x: point.x, y: point.y, duration: sliding, rest: resting)
    case "click":
      return .click
    case "point":
      return .point(try PointerMotion.parse(rest))
    case "type":
      let text = rest.joined(separator: " ")
      guard !text.isEmpty else {
        throw RemoteError.invalidCommand(problem: "type takes text, like: type \"star\"")
      }
      return .type(unquote(text))
    default:
      guard rest.isEmpty else {
        throw RemoteError.invalidCommand(problem: "unknown command \"\(verb)\"")
      }
      return .press(try key(verb))
    }
  }

  /// `2s`, `500ms` or `1.5` (seconds), between 0 and 60 s.
  public static func duration(_ word: String) throws(RemoteError) -> Duration {
    var text = Substring(word)
    var scale = 1.0
    if text.hasSuffix("ms") {
      text = text.dropLast(2)
      scale = 0.001
    } else if text.hasSuffix("s") {
      text = text.dropLast()
    }
    guard let value = Double(text), value > 0, value * scale <= 60 else {
      throw RemoteError.invalidCommand(
        problem: "bad duration \"\(word)\" (like 2s, 500ms; at most 60 s)")
    }
    return .nanoseconds(Int64((value * scale * 1e9).rounded()))
  }

  /// `X,Y` with both in [−1, 1].
  public static func point(_ word: String) throws(RemoteError) -> SurfacePoint {
    let parts = word.split(separator: ",")
    guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]),
      abs(x) <= 1, abs(y) <= 1
    else {
      throw RemoteError.invalidCommand(
        problem: "bad point \"\(word)\" (X,Y with both between -1 and 1, like 0.2,0)")
    }
    return SurfacePoint(x: x, y: y)
  }

  private static func unquote(_ text: String) -> String {
    if text.count >= 2, text.first == "\"", text.last == "\"" {
      return String(text.dropFirst().dropLast())
    }
    return text
  }

  /// The action as a short name for output lines ("swipe right", "hold right").
  public var name: String {
    switch self {
    case .press(let key): key.name
    case .hold(let key, _): "hold \(key.name)"
    case .double(let key): "double \(key.name)"
    case .swipe(let direction, _, _, _): "swipe \(direction.rawValue)"
    case .drag: "drag"
    case .click: "click"
    case .type: "type"
    case .point(let motion): motion.name
    }
  }
}
