import ArgumentParser
import FocusEngine
import RemoteCore

extension RemoteCommand {
  /// `tenfoot-remote hold KEY [--for 1s]`
  struct Hold: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Hold a key down: arrows repeat (after 0.5 s, then every 50 ms), select "
        + "opens the context menu after 1 s.")

    @OptionGroup var options: RemoteOptions
    @Argument(help: "The key to hold.") var key: RemoteButton
    @Option(
      name: .customLong("for"),
      help: ArgumentHelp("How long, like 2s or 500ms (at most 60 s).", valueName: "duration"),
      transform: { try RemoteAction.duration($0) })
    var length: Duration = .seconds(1)

    func run() throws { try options.perform(.hold(key, for: length)) }
  }

  /// `tenfoot-remote double KEY`
  struct Double: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Press a key twice, quickly.")

    @OptionGroup var options: RemoteOptions
    @Argument(help: "The key.") var key: RemoteButton

    func run() throws { try options.perform(.double(key)) }
  }

  /// `tenfoot-remote swipe DIRECTION [--speed …|--velocity V] [--distance D] [--drift D]`
  struct Swipe: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Swipe on the touch surface (a 120 Hz stream that leaves at the velocity asked).",
      discussion: """
        The surface is 2 units wide. --speed slow is a deliberate drag (0.8 units/s at \
        release: no coasting), medium 2.5, fast a flick (6 units/s: coasts several items).
        """)

    @OptionGroup var options: RemoteOptions
    @Argument(help: "The direction.") var direction: Direction
    @Option(help: "The release speed (medium unless --velocity).") var speed: SwipeSpeed?
    @Option(help: "Release velocity in surface units per second (instead of --speed).")
    var velocity: Swift.Double?
    @Option(help: "Travel in surface units (at most 2).")
    var distance = RemoteAction.swipeDistance
    @Option(help: "Drift across the direction, surface units (a diagonal thumb; at most 1).")
    var drift: Swift.Double = 0

    func validate() throws {
      if speed != nil && velocity != nil {
        throw ValidationError("give --speed or --velocity, not both")
      }
      do {
        _ = try action()
      } catch {
        throw ValidationError(error.description)
      }
    }

    func run() throws { try options.perform(try action()) }

    private func action() throws(RemoteError) -> RemoteAction {
      try .swipe(
        toward: direction, velocity: velocity ?? (speed ?? .medium).velocity, distance: distance,
        drift: drift)
    }
  }

  /// `tenfoot-remote drag --to X,Y [--duration T] [--rest T]`
  struct Drag: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Touch, slide to a point, rest briefly, lift: tilts the focused item.")

    @OptionGroup var options: RemoteOptions
    @Option(
      help: ArgumentHelp("Where to slide to, X,Y in [-1, 1].", valueName: "x,y"),
      transform: { try RemoteAction.point($0) })
    var to: SurfacePoint
    @Option(
      help: ArgumentHelp("How long the slide takes, like 250ms.", valueName: "duration"),
      transform: { try RemoteAction.duration($0) })
    var duration: Duration = .milliseconds(250)
    @Option(
      help: ArgumentHelp(
        "How long the finger rests before lifting, like 2s.", valueName: "duration"),
      transform: { try RemoteAction.duration($0) })
    var rest = RemoteAction.dragRest

    func run() throws {
      try options.perform(.drag(x: to.x, y: to.y, duration: duration, rest: rest))
    }
  }

  /// `tenfoot-remote click`
  struct Click: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Click the touch surface (select).")

    @OptionGroup var options: RemoteOptions

    func run() throws { try options.perform(.click) }
  }

  /// `tenfoot-remote type TEXT`
  struct TypeText: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "type", abstract: "Type text into the focused text field.")

    @OptionGroup var options: RemoteOptions
    @Argument(help: "The text.") var text: String

    func run() throws { try options.perform(.type(text)) }
  }
}
