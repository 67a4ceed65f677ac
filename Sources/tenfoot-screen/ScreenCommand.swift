import ArgumentParser
import CatalogDemo
import FocusEngine
import Foundation
import HeadlessScreen
import Logging
import PhoneRemote
import SVGScreen
import ScreenCore
import ScreenSpeech
import TenFootCLI
import TenFootClient
import TenFootProtocol
import TenFootSecurity
import TerminalScreen
import WebScreen
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
      applied state instead (docs/running.md); --svg DIR also draws each state as an SVG file. \
      --renderer web serves a page that draws the screen in CSS 3D and acts as a remote \
      (--listen HOST:PORT, default 127.0.0.1:8080). --speak says each focus change aloud \
      (speech-dispatcher when one runs, else espeak-ng). 'tenfoot-screen pairing open' opens \
      pairing again at this screen after too many wrong PINs closed it.
      """,
    version: TenFootVersion.string,
    subcommands: [PairingCommand.self])

  /// Blocks SIGINT and SIGTERM before any other thread exists (see `SignalWatcher`), then
  /// parses the arguments (a key option's value joined to it: ``KeyArguments``) and runs.
  static func main() {
    SignalWatcher.start()
    main(KeyArguments.commandLine)
  }

  enum RendererKind: String, ExpressibleByArgument, CaseIterable {
    case terminal, headless, web
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
    help: ArgumentHelp(
      """
      The app's asset directory: items' relative images are read from it (web: served at \
      /assets/, SVG frames: embedded). With --layout, every relative image must be a PNG, \
      JPEG, GIF or WebP file inside it, else the screen does not start.
      """, valueName: "dir"),
    completion: .directory)
  var assets: String?

  @Option(
    help: ArgumentHelp(
      """
      With --renderer web: serve your own page from this directory (its index.html and \
      files, and /tenfoot.js) and let it be the screen's app: the elements it marks are the \
      layout (docs/apps.md, "Your own web page"). Until the page connects, the screen \
      registers an empty layout.
      """, valueName: "dir"),
    completion: .directory)
  var app: String?

  @Option(
    help: "Catalog JSON for the catalog app (default: the built-in catalog).",
    completion: .file(extensions: ["json"]))
  var catalog: String?

  @Flag(help: "Show an existing session without registering a layout (a mirror).")
  var mirror = false

  @Option(help: "terminal (default on a TTY), headless or web.")
  var renderer: RendererKind?

  @Option(help: "Headless output: a file, or - for standard output.")
  var frames = "-"

  @Option(help: "Headless: also write one SVG file per frame into this directory.")
  var svg: String?

  @Option(
    help:
      "Web renderer and --phone-remote: the address to serve the pages on (port 0 picks a free port)."
  )
  var listen = "127.0.0.1:8080"

  @Option(
    name: .customLong("web-allow-origin"),
    help: ArgumentHelp(
      """
      Web renderer and --phone-remote: a page origin (http[s]://HOST[:PORT]) besides the \
      page's own that may open the WebSockets; repeatable. Others are refused with 403.
      """, valueName: "url"))
  var webAllowOrigins: [String] = []

  @Option(
    help: "Web page server: seconds a connection may take to send its first request's headers.")
  var webHeaderTimeout = 10.0

  @Option(help: "Web page server: seconds a kept-alive connection may stay idle.")
  var webIdleTimeout = 30.0

  @Option(help: "Web page server: connections open at once (WebSockets included); more are closed.")
  var webMaxConnections = 128

  @Option(help: "Web page server: connections open at once from one client address.")
  var webMaxConnectionsPerAddress = 32

  /// The page server's limits the options ask for.
  var webLimits: WebServerLimits {
    WebServerLimits(
      headerTimeout: .milliseconds(Int64(webHeaderTimeout * 1000)),
      idleTimeout: .milliseconds(Int64(webIdleTimeout * 1000)),
      maxConnections: webMaxConnections, maxConnectionsPerAddress: webMaxConnectionsPerAddress)
  }

  @Flag(
    help: """
      Show a QR code that lets a phone in as a remote (a remote-only page served on --listen, a \
      one-time code, the phone's own revocable key; needs TCP endpoints with CURVE). Web and \
      terminal renderers, and headless --svg frames.
      """)
  var phoneRemote = false

  @Option(
    help:
      "With --phone-remote: the host name or address in the code's URL (default: --listen's host).")
  var phoneHost: String?

  @Flag(help: "Speak announcements (speech-dispatcher when one runs, else espeak-ng).")
  var speak = false

  @Option(
    help: "With --speak: write each utterance to DIR/utterance-N.wav (espeak-ng) instead.",
    completion: .directory)
  var speechWav: String?

  @Option(help: "How much announcements say: low, normal or high (default: the layout's).")
  var verbosity: Verbosity?

  @Flag(
    help:
      "Reduce motion: no tilt, specular sweep or coasting animation; the parallax rests in the frames."
  )
  var reduceMotion = false

  @Option(help: "Contrast: normal or high (thicker focus rings, no translucency).")
  var contrast = DisplayOptions.Contrast.normal

  @Option(help: "Title size: normal or large (the terminal wraps titles instead of cutting them).")
  var textSize = DisplayOptions.TextSize.normal

  /// The display options the flags ask for.
  var display: DisplayOptions {
    DisplayOptions(reduceMotion: reduceMotion, contrast: contrast, textSize: textSize)
  }

  @Option(help: .hidden)
  var debugDropDelta: [UInt64] = []

  @Flag(help: "Print this screen's CURVE public key (for 'tenfoot-broker remotes add') and exit.")
  var printKey = false

  func validate() throws {
    if let problem = ScreenID.problem(with: id) { throw ValidationError(problem) }
    if ((renderer ?? .terminal) == .web || phoneRemote) && WebAddress(listen) == nil {
      throw ValidationError("--listen wants HOST:PORT, e.g. 127.0.0.1:8080 (port 0 picks one)")
    }
    if mirror && layout != nil {
      throw ValidationError("--mirror registers no layout: drop --layout")
    }
    if layout != nil && catalog != nil {
      throw ValidationError("--layout replaces the catalog app: give --layout or --catalog")
    }
    if phoneRemote && renderer == .headless && svg == nil {
      throw ValidationError(
        "--phone-remote shows its code with the terminal or web renderer, or in headless --svg frames"
      )
    }
    if phoneHost != nil && !phoneRemote {
      throw ValidationError("--phone-host goes with --phone-remote")
    }
    if speechWav != nil && !speak { throw ValidationError("--speech-wav goes with --speak") }
    if case .failure(let invalid) = WebOrigins.allowing(webAllowOrigins) {
      throw ValidationError("--web-allow-origin: \(invalid)")
    }
    for (name, seconds) in [("header", webHeaderTimeout), ("idle", webIdleTimeout)]
    where !(seconds > 0 && seconds <= 3600) {
      throw ValidationError("--web-\(name)-timeout wants seconds in (0, 3600]")
    }
    if webMaxConnections < 1 || webMaxConnectionsPerAddress < 1 {
      throw ValidationError(
        "--web-max-connections and --web-max-connections-per-address want 1 or more")
    }
    if app != nil && renderer != .web {
      throw ValidationError("--app serves a web page: add --renderer web")
    }
    if app != nil && (layout != nil || catalog != nil || mirror) {
      throw ValidationError(
        "--app is the screen's app and layout: drop --layout, --catalog, --mirror")
    }
    if mirror && verbosity != nil {
      throw ValidationError("--verbosity is part of the registered layout: a mirror has none")
    }
  }

  func run() throws {
    if printKey { return try printPublicKey() }
    let kind = renderer ?? (isatty(STDOUT_FILENO) == 1 ? .terminal : .headless)
    let endpoints = try connection.usageEndpoints(program: "screen")
    let logger = logging.bootstrap(label: "tenfoot.screen", defaultFile: defaultLogFile(kind))
    var (registered, app) = try registration()
    if let verbosity { registered?.verbosity = verbosity }
    let assetDirectory = try checkedAssets(registered)
    let context = try Context()
    let curve = try connection.clientCurve(endpoints, program: "screen")
    var phone: PhoneRemotes?
    if phoneRemote {
      guard let curve, let pairing = connection.pairingEndpoint(endpoints), endpoints.usesTCP
      else {
        throw ValidationError(
          "--phone-remote gives each phone its own CURVE key: it needs tcp:// endpoints without --insecure"
        )
      }
      phone = try PhoneRemotes(
        settings: PhoneRemoteSettings(
          context: context, controlEndpoint: endpoints.control, pairingEndpoint: pairing,
          brokerKey: curve.brokerKey, screenID: id, publicHost: phoneHost,
          stateDirectory: try connection.stateDirectory(program: "screen")),
        logger: logger)
      if let phone { printPhoneURL(phone, kind: kind) }
    }
    var (output, web) = try makeRenderer(
      kind, logger: logger, phone: phone, assets: assetDirectory)
    if speak { output = CompositeRenderer([output, SpeechRenderer(speaker: try speaker(logger))]) }
    var configuration = ScreenConfiguration(endpoints: endpoints, screenID: id, layout: registered)
    if self.app != nil { configuration.appAnswersLater = Self.pageDeadline }
    configuration.dropDeltas = Set(debugDropDelta)
    configuration.display = display
    configuration.curve = curve
    if let curve {
      // Pinned once the broker answered over CURVE with this key, never for an endpoint
      // where no broker proved it holds it.
      let directory = try connection.stateDirectory(program: "screen")
      configuration.whenBrokerAnswered = { [logger] in
        do {
          try ClientTrust(directory: directory).pinAfterHandshake(curve, for: endpoints.control)
        } catch {
          logger.warning("cannot pin the broker's key", metadata: ["error": "\(error)"])
        }
      }
    }
    if endpoints.usesTCP && connection.insecure {
      logger.warning(
        "plain TCP without CURVE: anyone on the network can read this screen's state",
        metadata: ["zmq.state": "\(endpoints.state)"])
    }
    let client = try ScreenClient(
      configuration: configuration, context: context, renderer: output, logger: logger, app: app)
    web?.forwardInputs(to: client.inputs)
    web?.forwardReactions(to: client.reactions)
    let stopper = client.stopper
    SignalWatcher.onTerminate { stopper.stop() }
    try client.run()
  }

  /// The speaker `--speak` and `--speech-wav` ask for.
  private func speaker(_ logger: Logger) throws -> Speaker {
    if let speechWav {
      let espeak = "/usr/bin/espeak-ng"
      guard FileManager.default.isExecutableFile(atPath: espeak) else {
        throw CLIError("--speech-wav needs espeak-ng (apt-get install espeak-ng)")
      }
      return Speaker(voice: .wavFiles(espeak: espeak, directory: speechWav), logger: logger)
    }
    guard let voice = Speaker.Voice.detect(environment: ProcessInfo.processInfo.environment)
    else {
      throw ValidationError(
        "--speak needs espeak-ng or speech-dispatcher (apt-get install espeak-ng)")
    }
    return Speaker(voice: voice, logger: logger)
  }

  /// Prints this screen's CURVE public key (created on first use).
  private func printPublicKey() throws {
    do {
      print(
        try ClientTrust(directory: try connection.stateDirectory(program: "screen")).keyPair
          .publicKey)
    } catch let error as StoreError {
      throw CLIError(error)
    }
  }

  /// Where a full-screen terminal screen logs unless told (keeps the display clean).
  private func defaultLogFile(_ kind: RendererKind) -> String? {
    guard kind == .terminal,
      let directory = try? Endpoints.runtimeDirectory(
        environment: ProcessInfo.processInfo.environment)
    else { return nil }
    return "\(directory)/screen-\(id).log"
  }

  /// The layout to register and the app that drives it: a --layout file (no app), the catalog
  /// app, or nothing for a mirror.
  private func registration() throws -> (Layout?, CatalogApp?) {
    if mirror { return (nil, nil) }
    // A page's layout comes when it connects; until then the session has no items.
    if app != nil { return (Layout(items: []), nil) }
    if let layout {
      do {
        return (try LayoutFile.load(path: layout), nil)
      } catch {
        throw ValidationError("\(error)")
      }
    }
    let catalog: Catalog
    do {
      catalog = try self.catalog.map { try Catalog.load(path: $0) } ?? .builtIn
    } catch let error as CatalogError {
      throw CLIError(error)
    }
    let app = CatalogApp(catalog: catalog)
    return (app.homeLayout, app)
  }

  /// The --assets directory, and (with --layout) the layout's relative images checked in it:
  /// a missing or refused one ends the screen with a line per image (exit status 1).
  private func checkedAssets(_ registered: Layout?) throws -> AssetDirectory? {
    let directory: AssetDirectory?
    do {
      directory = try assets.map { path throws(AssetRefusal) in try AssetDirectory(path: path) }
    } catch {
      throw CLIError("--assets", cause: error)
    }
    if let layout, let registered {
      let problems = AssetDirectory.layoutProblems(registered, assets: directory)
      if !problems.isEmpty {
        throw CLIError(problems.map { "\(layout): \($0)" }.joined(separator: "\n"))
      }
    }
    return directory
  }

  /// The renderer `kind` names, and the web renderer again when it is one (it also takes
  /// input).
  private func makeRenderer(
    _ kind: RendererKind, logger: Logger, phone: PhoneRemotes?, assets: AssetDirectory?
  ) throws -> (any Renderer, WebRenderer?) {
    switch kind {
    case .terminal:
      let terminal = TerminalRenderer(display: display)
      guard let phone else { return (terminal, nil) }
      // The phone's page needs the page server: the web renderer's, on --listen, behind the
      // terminal (it also serves the screen's page, which needs its access key). Its address
      // goes to the log: the terminal is the terminal renderer's. The server starts first, so
      // the phone's URL is printed before the terminal renderer takes the terminal.
      let slot = terminal.phoneCodeSlot
      phone.observeURL { slot.show($0) }
      let server = try webRenderer(logger: logger, phone: phone, assets: assets) { url in
        Self.logListening(url, logger: logger)
      }
      return (CompositeRenderer([server, terminal]), server)
    case .headless:
      let headless = try HeadlessRenderer(path: frames)
      guard let svg else { return (headless, nil) }
      let pictures = try SVGRenderer(directory: svg, display: display, assets: assets)
      guard let phone else { return (CompositeRenderer([headless, pictures]), nil) }
      // As for the terminal: the page server behind, the code drawn in the SVG frames.
      let slot = pictures.phoneCodeSlot
      phone.observeURL { slot.show($0) }
      let server = try webRenderer(logger: logger, phone: phone, assets: assets) { url in
        Self.logListening(url, logger: logger)
      }
      return (CompositeRenderer([headless, pictures, server]), server)
    case .web:
      let renderer = try webRenderer(logger: logger, phone: phone, assets: assets) { url in
        print("tenfoot-screen web \(url)")
        fflush(nil)
      }
      return (renderer, renderer)
    }
  }

  /// Logs where the page server listens behind another renderer (whose output is not for
  /// messages): the page's URL without its key above debug level; the key is in the state
  /// directory's `web-key`.
  private static func logListening(_ url: String, logger: Logger) {
    logger.notice(
      "web page server listening",
      metadata: ["url": "\(SecretURL.redacted(url))", "key": "the state directory's web-key"])
    logger.debug("web page server listening with its key", metadata: ["url": "\(url)"])
  }

  /// The web renderer on --listen; `onListening` gets the page's URL.
  private func webRenderer(
    logger: Logger, phone: PhoneRemotes?, assets: AssetDirectory?,
    onListening: @escaping @Sendable (String) -> Void
  ) throws -> WebRenderer {
    guard let address = WebAddress(listen) else { throw ValidationError("bad --listen") }
    return WebRenderer(
      host: address.host, port: address.port,
      accessKey: .kept(
        at: try? connection.stateDirectory(program: "screen") + "/web-key", logger: logger),
      logger: logger, display: display, hosted: phone, limits: webLimits,
      origins: try WebOrigins.allowing(webAllowOrigins).get(), assets: assets,
      app: try appDirectory(), onListening: onListening)
  }
}

extension ScreenCommand {
  /// How long the screen waits for a page's answer to an activation, back or home before it
  /// lets the held presses go on (below the broker's 250 ms).
  static let pageDeadline: Duration = .milliseconds(200)

  /// The --app directory, checked (it exists and holds index.html).
  fileprivate func appDirectory() throws -> AssetDirectory? {
    guard let app else { return nil }
    let directory: AssetDirectory
    do {
      directory = try AssetDirectory(path: app)
    } catch {
      throw CLIError("--app", cause: error)
    }
    if case .failure(let problem) = directory.locate("index.html") {
      throw CLIError("--app \(app): index.html: \(problem.reason)")
    }
    return directory
  }
}

extension DisplayOptions.Contrast: ExpressibleByArgument {}
extension DisplayOptions.TextSize: ExpressibleByArgument {}
