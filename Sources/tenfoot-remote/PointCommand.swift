import ArgumentParser
import RemoteCore

extension RemoteCommand {
  /// `tenfoot-remote point --to X,Y | --by DX,DY | --flick DX,DY --velocity V | --click`
  struct Point: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Use the pointer (a Magic Remote, a mouse): move it, flick it or click.",
      discussion: """
        Coordinates are canvas points (a pointer off the canvas is clamped to its edge). The \
        item under the pointer takes focus; --click activates it; a --flick lands on the \
        item its projected path reaches.
        """)

    @OptionGroup var options: RemoteOptions
    @Option(help: ArgumentHelp("Move to a canvas point.", valueName: "x,y"))
    var to: String?
    @Option(help: ArgumentHelp("Move by a delta in points.", valueName: "dx,dy"))
    var by: String?
    @Option(help: ArgumentHelp("Move by a delta and lift off: a flick.", valueName: "dx,dy"))
    var flick: String?
    @Option(help: "The flick's velocity in points per second.")
    var velocity: Swift.Double = 3000
    @Flag(help: "Click (press and release the primary button) where the pointer is.")
    var click = false

    func validate() throws {
      let given = [to != nil, by != nil, flick != nil, click].filter { $0 }.count
      guard given == 1 else {
        throw ValidationError("give exactly one of --to, --by, --flick or --click")
      }
      do {
        _ = try motion()
      } catch {
        throw ValidationError(error.description)
      }
    }

    func run() throws { try options.perform(.point(try motion())) }

    private func motion() throws(RemoteError) -> PointerMotion {
      if let to {
        let (x, y) = try PointerMotion.pair(to)
        return .to(x: x, y: y)
      }
      if let by {
        let (dx, dy) = try PointerMotion.pair(by)
        return .by(dx: dx, dy: dy)
      }
      if let flick {
        let (dx, dy) = try PointerMotion.pair(flick)
        return try PointerMotion.checkedFlick(dx: dx, dy: dy, velocity: velocity)
      }
      return .click
    }
  }
}
