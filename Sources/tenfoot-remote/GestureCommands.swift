import ArgumentParser
import RemoteCore
import TenFootProtocol

extension RemoteCommand {
  /// Runs one action and prints what it did.
  static func run(_ action: RemoteAction, _ options: RemoteOptions) throws {
    let remote = try options.connect()
    print(try remote.perform(action).line)
  }

  /// `tenfoot-remote hold KEY [--for 1s]`
  struct Hold: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Hold a key down: arrows repeat (after 0.5 s, then every 50 ms), select "
        + "opens the context menu after 1 s.")

    @OptionGroup var options: RemoteOptions
    @Argument(help: "The key to hold.") var key: String
    @Option(name: .customLong("for"), help: "How long, like 2s or 500ms.") var duration = "1s"

    func run() throws {
      try RemoteCommand.run(try RemoteAction.parse(["hold", key, duration]), options)
    }
  }

  /// `tenfoot-remote double KEY`
  struct Double: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Press a key twice, quickly.")

    @OptionGroup var options: RemoteOptions
    @Argument(help: "The key.") var key: String

    func run() throws {
      try RemoteCommand.run(try RemoteAction.parse(["double", key]), options)
    }
  }

  /// `tenfoot-remote swipe DIRECTION [--speed …|--velocity V] [--distance D]`
  struct Swipe: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Swipe on the touch surface (a 120 Hz stream that leaves at the velocity asked).",
      discussion: """
        The surface is 2 units wide. --speed slow is a deliberate drag (0.8 units/s at \
        release: no coasting), medium 2.5, fast a flick (6 units/s: coasts several items).
        """)

    @OptionGroup var options: RemoteOptions
    @Argument(help: "left, right, up or down.") var direction: String
    @Option(help: "slow, medium or fast.") var speed: String?
    @Option(help: "Release velocity in surface units per second (instead of --speed).")
    var velocity: Swift.Double?
    @Option(help: "Travel in surface units (default 1.2, at most 2).") var distance: Swift.Double?
    @Option(help: "Drift across the direction, surface units (a diagonal thumb; default 0).")
    var drift: Swift.Double?

    func validate() throws {
      if speed != nil && velocity != nil {
        throw ValidationError("give --speed or --velocity, not both")
      }
    }

    func run() throws {
      var words = ["swipe", direction]
      if let speed { words.append(speed) }
      if let velocity { words.append("v=\(velocity)") }
      if let distance { words.append("d=\(distance)") }
      if let drift { words.append("drift=\(drift)") }
      try RemoteCommand.run(try RemoteAction.parse(words), options)
    }
  }

  /// `tenfoot-remote drag --to X,Y [--duration T]`
  struct Drag: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Touch, slide to a point, rest briefly, lift: tilts the focused item.")

    @OptionGroup var options: RemoteOptions
    @Option(help: "Where to slide to, X,Y in [-1, 1].") var to: String
    @Option(help: "How long the slide takes, like 250ms.") var duration = "250ms"

    func run() throws {
      try RemoteCommand.run(try RemoteAction.parse(["drag", to, duration]), options)
    }
  }

  /// `tenfoot-remote click`
  struct Click: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Click the touch surface (select).")

    @OptionGroup var options: RemoteOptions

    func run() throws {
      try RemoteCommand.run(.click, options)
    }
  }

  /// `tenfoot-remote type TEXT`
  struct TypeText: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "type", abstract: "Type text into the focused text field.")

    @OptionGroup var options: RemoteOptions
    @Argument(help: "The text.") var text: String

    func run() throws {
      try RemoteCommand.run(.type(text), options)
    }
  }
}
