/// One timed input from a remote. Times are the remote's monotonic clock in nanoseconds.
public enum RemoteInput: Sendable, Equatable {
  /// A button press, hold tick or release.
  case button(RemoteButton, ButtonPhase, at: UInt64)
  /// A touch-surface sample, x and y in [−1, 1].
  case touch(TouchRecognizer.Phase, x: Double, y: Double, at: UInt64)
  /// Text for the focused text field.
  case text(TextEdit)
  /// A pointing device's sample (a Magic Remote, a mouse, the web page's mouse).
  case pointer(PointerEvent)
}

/// Turns timed remote input into engine events: taps, double taps, holds and auto-repeat
/// from the remote's timestamps, touch steps and coasting, and the tilt and bump that feed
/// ``Parallax``. Pure: the timestamps in the input are the only clock.
///
/// - An arrow moves on press; held, it repeats after ``Timings/repeatDelay`` (0.5 s) and then
///   every ``Timings/repeatInterval`` (50 ms). The remote sends `held` ticks while a button is
///   down; each tick (and the release) emits the repeats due by its timestamp, so the count
///   depends only on how long the button was held, never on when packets arrive.
/// - Select highlights on press and activates on release, unless it was held for
///   ``Timings/holdDuration`` (1 s): then it shows the context menu and does not activate.
/// - Two releases of Select, Menu, Home or Play/Pause within ``Timings/doubleTapWindow`` are a
///   double tap.
/// - Menu, Home and Play/Pause act on release, as on tvOS.
public struct RemoteInterpreter: Sendable, Equatable {
  /// Timing rules for buttons.
  public struct Timings: Sendable, Equatable {
    /// Two taps closer than this are a double tap (300 ms).
    public var doubleTapWindow: UInt64 = 300_000_000
    /// A press this long is a hold (1 s).
    public var holdDuration: UInt64 = 1_000_000_000
    /// The first auto-repeat of a held arrow (500 ms).
    public var repeatDelay: UInt64 = 500_000_000
    /// Then one repeat every (50 ms).
    public var repeatInterval: UInt64 = 50_000_000

    /// The defaults above.
    public init() {}
  }

  private struct Held: Sendable, Equatable {
    var since: UInt64
    var repeats: Int
    var longPress: Bool
  }

  /// The timing rules.
  public var timings: Timings
  /// The touch recognizer.
  public private(set) var touch: TouchRecognizer
  /// The direction of the last failed move, until the next input: the spring-back bump.
  public private(set) var bump: Direction?
  private var held: [RemoteButton: Held] = [:]
  private var lastTap: Tap?
  /// This remote's pointer: its own position (for relative devices) and velocity.
  public private(set) var pointer = PointerTracker()

  private struct Tap: Sendable, Equatable {
    var button: RemoteButton
    var at: UInt64
  }

  /// Whether nothing is in progress: no button held and no finger on the surface (so
  /// forgetting this interpreter loses nothing but a pending double tap).
  public var isIdle: Bool { held.isEmpty && !touch.touching }

  /// An interpreter with these rules.
  public init(timings: Timings = Timings(), touch: TouchRecognizer.Configuration = .init()) {
    self.timings = timings
    self.touch = TouchRecognizer(configuration: touch)
  }

  /// The tilt to show on the focused item: the finger's, each axis in [−1, 1].
  public var tilt: Point { touch.tilt }

  /// Applies one remote input to `focus`, returning the engine's effects in order.
  public mutating func handle(_ input: RemoteInput, _ focus: inout FocusState) -> [FocusEffect] {
    bump = nil
    var effects: [FocusEffect]
    switch input {
    case .button(let button, let phase, let time):
      effects = handleButton(button, phase, time, &focus)
    case .touch(let phase, let x, let y, let time):
      effects = []
      for output in touch.handle(phase, x: x, y: y, at: time) {
        switch output {
        case .step(let direction):
          effects += move(direction, &focus)
        case .coast(let direction, let steps, _):
          for _ in 0..<steps {
            let step = move(direction, &focus)
            effects += step
            if case .movementFailed = step.first { break }  // Coasting stops at the edge.
          }
        }
      }
    case .text(let edit):
      effects = reduce(&focus, .text(edit))
    case .pointer(let event):
      let start = focus.pointer.visible ? focus.pointer.position : nil
      guard let sample = pointer.resolve(event, canvas: focus.layout.canvas, start: start) else {
        return []
      }
      effects = reduce(&focus, .pointer(sample))
    }
    return effects
  }

  private mutating func move(_ direction: Direction, _ focus: inout FocusState) -> [FocusEffect] {
    let effects = reduce(&focus, .move(direction))
    if case .movementFailed = effects.first { bump = direction }
    return effects
  }

  private mutating func handleButton(
    _ button: RemoteButton, _ phase: ButtonPhase, _ time: UInt64, _ focus: inout FocusState
  ) -> [FocusEffect] {
    switch phase {
    case .down:
      guard held[button] == nil else { return [] }  // A repeated down: already held.
      // Another button in between: the next tap of the last one is a new tap, not a double.
      if let last = lastTap, last.button != button { lastTap = nil }
      held[button] = Held(since: time, repeats: 0, longPress: false)
      switch button {
      case .up: return move(.up, &focus)
      case .down: return move(.down, &focus)
      case .left: return move(.left, &focus)
      case .right: return move(.right, &focus)
      case .select: return reduce(&focus, .selectDown)
      case .tab: return reduce(&focus, .tab(.next))
      case .shiftTab: return reduce(&focus, .tab(.previous))
      // No focus meaning on press (Menu, Home and Play/Pause act on release; page, volume,
      // mute, power and info on neither): acknowledged, nothing changes.
      case .menu, .home, .playPause, .pageUp, .pageDown, .volumeUp, .volumeDown, .mute, .power,
        .info:
        return []
      }
    case .held:
      return holdTick(button, time, &focus)
    case .up:
      var effects = holdTick(button, time, &focus)
      guard let state = held.removeValue(forKey: button) else { return effects }
      switch button {
      case .select:
        effects += reduce(&focus, state.longPress ? .cancelSelect : .selectUp)
      case .menu: effects.append(.back)
      case .home: effects.append(.home)
      case .playPause: effects.append(.playPause(focus.focused))
      default: break
      }
      // Double taps are reported for the buttons that act on release; an arrow's second tap
      // is simply a second step.
      if !state.longPress, [.select, .menu, .home, .playPause].contains(button) {
        if let last = lastTap, last.button == button, time >= last.at,
          time - last.at <= timings.doubleTapWindow
        {
          effects.append(.doubleTap(button))
          lastTap = nil
        } else {
          lastTap = Tap(button: button, at: time)
        }
      }
      return effects
    }
  }

  /// Emits what holding `button` until `time` has made due: arrow repeats, the long press.
  private mutating func holdTick(
    _ button: RemoteButton, _ time: UInt64, _ focus: inout FocusState
  ) -> [FocusEffect] {
    guard var state = held[button], time >= state.since else { return [] }
    let elapsed = time - state.since
    var effects: [FocusEffect] = []
    if let direction = button.direction, elapsed >= timings.repeatDelay {
      let due = 1 + Int((elapsed - timings.repeatDelay) / timings.repeatInterval)
      while state.repeats < due {
        state.repeats += 1
        let step = move(direction, &focus)
        effects += step
        if case .movementFailed = step.first {
          state.repeats = due  // At the edge: one bump, not one per missed repeat.
          break
        }
      }
    }
    if button == .select, !state.longPress, elapsed >= timings.holdDuration {
      state.longPress = true
      if let pressed = focus.pressed { effects.append(.contextMenu(pressed)) }
    }
    held[button] = state
    return effects
  }
}
