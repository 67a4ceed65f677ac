import ArgumentParser
import FocusEngine
import Foundation
import ScreenCore
import TenFootCLI
import TenFootClient
import TenFootProtocol
import TenFootSecurity
import ZeroMQ

/// `tenfoot-screen`: registers a layout and renders the state the broker publishes.
@main
struct ScreenCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tenfoot-screen",
    abstract: "Registers a layout with the broker and renders its focus state.",
    discussion: """
      By default it registers the embedded demo catalog (a menu bar and rows of posters) and \
      draws it full-screen in the terminal. --renderer headless writes one JSON object per \
      applied state instead (see README).
      """,
    version: TenFootVersion.string)

  enum RendererKind: String, ExpressibleByArgument, CaseIterable {
    case terminal, headless
  }

  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var logging: LoggingOptions

  @Option(help: "Screen session id (1–64 of A-Z a-z 0-9 . _ : -).")
  var id = "main"

  @Option(
    help: "Layout JSON file to register instead of the catalog app (no app runs then).",
    completion: .file(extensions: ["json"]))
  var layout: String?

  @Option(
    help: "Catalog JSON for the catalog app (default: the built-in catalog).",
    completion: .file(extensions: ["json"]))
  var catalog: String?

  @Flag(help: "Show an existing session without registering a layout (a mirror).")
  var mirror = false

  @Option(help: "terminal (default on a TTY) or headless.")
  var renderer: RendererKind?

  @Option(help: "Headless output: a file, or - for standard output.")
  var frames = "-"

  @Option(help: .hidden)
  var debugDropDelta: [UInt64] = []

  @Flag(help: "Print this screen's CURVE public key (for 'tenfoot-broker remotes add') and exit.")
  var printKey = false

  func validate() throws {
    if let problem = ScreenID.problem(with: id) { throw ValidationError(problem) }
    if mirror && layout != nil {
      throw ValidationError("--mirror registers no layout: drop --layout")
    }
    if layout != nil && catalog != nil {
      throw ValidationError("--layout replaces the catalog app: give --layout or --catalog")
    }
  }

  func run() throws {
    if printKey {
      do {
        print(
          try ClientTrust(directory: try connection.stateDirectory(program: "screen")).keyPair
            .publicKey)
      } catch let error as StoreError {
        throw ValidationError(error.description)
      }
      return
    }
    let kind = renderer ?? (isatty(STDOUT_FILENO) == 1 ? .terminal : .headless)
    let endpoints: Endpoints
    do {
      endpoints = try connection.endpoints()
    } catch {
      throw ValidationError("\(error)")
    }
    var defaultLog: String?
    if kind == .terminal,
      let directory = try? Endpoints.runtimeDirectory(
        environment: ProcessInfo.processInfo.environment)
    {
      defaultLog = "\(directory)/screen-\(id).log"  // Keep the full-screen display clean.
    }
    let logger = logging.bootstrap(label: "tenfoot.screen", defaultFile: defaultLog)

    var registered: Layout?
    var app: CatalogApp?
    if !mirror {
      if let layout {
        do {
          registered = try LayoutFile.load(path: layout)
        } catch {
          throw ValidationError("\(error)")
        }
      } else {
        let catalog = try self.catalog.map { try Catalog.load(path: $0) } ?? .builtIn
        app = CatalogApp(catalog: catalog)
        registered = app?.homeLayout
      }
    }
    let output: any Renderer =
      switch kind {
      case .terminal: TerminalRenderer()
      case .headless: try HeadlessRenderer(path: frames)
      }
    var configuration = ScreenConfiguration(endpoints: endpoints, screenID: id, layout: registered)
    configuration.dropDeltas = Set(debugDropDelta)
    configuration.curve = try connection.clientCurve(endpoints, program: "screen")
    if endpoints.usesTCP && connection.insecure {
      logger.warning(
        "plain TCP without CURVE: anyone on the network can read this screen's state",
        metadata: ["zmq.state": "\(endpoints.state)"])
    }
    let context = try Context()
    let client = try ScreenClient(
      configuration: configuration, context: context, renderer: output, logger: logger, app: app)
    let stopper = client.stopper
    SignalWatcher.onTerminate { stopper.stop() }
    try client.run()
  }
}
