import ArgumentParser
import Foundation
import HeadlessScreen
import Logging
import ScreenCore
import TenFootCLI
import TenFootClient
import TenFootProtocol
import TenFootSecurity
import TerminalScreen
import ZeroMQ

/// Runs a ``ScreenApp``: inside a screen (it registers the app's layout and draws the screen
/// in the terminal) or, with `--attach`, as its own process bound to a screen another process
/// shows (the allow-list's `app` role; it puts its layout on that screen when it joins).
///
/// The command line is every TenFoot program's connection options (`--broker tenfoot://…`,
/// `--control`/`--state`, `--insecure`, `--state-dir`), plus `--id`, `--attach`,
/// `--renderer terminal|headless`, `--frames PATH` and `--print-key`.
public enum TenFootApp {
  /// Parses the command line, runs `app` until SIGINT or SIGTERM, and exits: 0 when stopped,
  /// 1 with the error's message when it fails, 64 for a usage error.
  public static func main(_ app: any ScreenApp) -> Never {
    SignalWatcher.start()
    let options: AppOptions
    do {
      options = try AppOptions.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
      AppOptions.exit(withError: error)
    }
    do {
      try run(app, options: options)
    } catch {
      AppOptions.exit(withError: error)
    }
    AppOptions.exit()
  }

  /// Runs `app` with `options` on a thread of its own until `stop()` on the returned handle's
  /// stopper, SIGINT or SIGTERM; returns when it ends, throwing what ended it.
  public static func run(_ app: any ScreenApp, options: AppOptions) async throws {
    let box = UncheckedApp(app: app, options: options)
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      let thread = Thread {
        do {
          try run(box.app, options: box.options)
          continuation.resume()
        } catch {
          continuation.resume(throwing: error)
        }
      }
      thread.name = "tenfoot-app"
      thread.start()
    }
  }

  /// Runs `app` with `options` on this thread until SIGINT or SIGTERM.
  public static func run(_ app: any ScreenApp, options: AppOptions) throws {
    if options.printKey {
      try printKey(options)
      return
    }
    let client = try client(for: app, options: options, logger: bootstrapLogging(options))
    let stopper = client.stopper
    SignalWatcher.onTerminate { stopper.stop() }
    try run(client)
  }

  /// Prints this app's CURVE public key (made on first use).
  static func printKey(_ options: AppOptions) throws {
    print(
      try ClientTrust(directory: try options.connection.stateDirectory(program: "app"))
        .keyPair.publicKey)
  }

  /// Runs `client` until it stops; a failure retrying cannot fix is a `CLIError` with its
  /// sentence.
  static func run(_ client: ScreenClient) throws {
    do {
      try client.run()
    } catch let error as ScreenError {
      throw CLIError(error)
    }
  }

  /// How the app shows its screen: as told, else the terminal on a TTY unless attached.
  static func rendererKind(_ options: AppOptions) -> AppOptions.RendererKind {
    options.renderer ?? (options.attach || isatty(STDOUT_FILENO) != 1 ? .headless : .terminal)
  }

  /// Bootstraps the process's logging as `options` say (once per process: executables only).
  static func bootstrapLogging(_ options: AppOptions) -> Logger {
    options.logging.bootstrap(
      label: "tenfoot.app",
      defaultFile: rendererKind(options) == .terminal ? logFile(screen: options.id) : nil)
  }

  /// The screen client that runs `app` as `options` say (connected, not yet running). An app
  /// that answers later (the async style) gives the deadline after which a frame it has not
  /// answered is answered with nothing.
  static func client(
    for app: any ScreenApp, options: AppOptions, answersLater: Duration? = nil, logger: Logger
  ) throws -> ScreenClient {
    let program = "app"
    let endpoints: Endpoints
    do {
      endpoints = try options.connection.endpoints(program: program)
    } catch let error as CLIError {
      throw error
    } catch {
      throw CLIError(error)
    }
    let renderer: any Renderer
    switch rendererKind(options) {
    case .terminal: renderer = TerminalRenderer()
    case .headless:
      if let frames = options.frames {
        renderer = try HeadlessRenderer(path: frames)
      } else {
        renderer = SilentRenderer()
      }
    }
    var configuration = ScreenConfiguration(
      endpoints: endpoints, screenID: options.id, layout: options.attach ? nil : app.layout)
    if !options.attach, configuration.layout == nil {
      throw CLIError(
        "this app has no layout of its own: run it with --attach to a screen that shows one")
    }
    configuration.appAnswersLater = answersLater
    let curve = try options.connection.clientCurve(endpoints, program: program)
    configuration.curve = curve
    if let curve {
      let directory = try options.connection.stateDirectory(program: program)
      configuration.whenBrokerAnswered = { [logger] in
        do {
          try ClientTrust(directory: directory).pinAfterHandshake(curve, for: endpoints.control)
        } catch {
          logger.warning("cannot pin the broker's key", metadata: ["error": "\(error)"])
        }
      }
    }
    return try ScreenClient(
      configuration: configuration, context: try Context(), renderer: renderer, logger: logger,
      app: app)
  }
}

extension TenFootApp {
  /// Where an app drawing in the terminal logs unless told (keeps the display clean): beside
  /// the screen's own log in the runtime directory, as `tenfoot-screen` does.
  static func logFile(screen: String) -> String? {
    guard
      let directory = try? Endpoints.runtimeDirectory(
        environment: ProcessInfo.processInfo.environment)
    else { return nil }
    return "\(directory)/app-\(screen).log"
  }
}

/// `TenFootApp`'s command line.
public struct AppOptions: ParsableCommand {
  public static let configuration = CommandConfiguration(
    abstract: "A TenFoot app: runs inside its own screen, or attached to another (--attach).")

  /// How the app shows the screen it runs in.
  public enum RendererKind: String, ExpressibleByArgument, CaseIterable, Sendable {
    case terminal, headless
  }

  /// The broker to connect to and this app's keys.
  @OptionGroup public var connection: ConnectionOptions
  /// Log level and file.
  @OptionGroup public var logging: LoggingOptions

  /// The screen session id.
  @Option(help: "Screen session id the app runs on.")
  public var id = "main"

  /// Run as its own process bound to a screen another process shows.
  @Flag(
    help:
      "Attach to a screen another process shows, as this app's own process (its key needs the app role for the screen: tenfoot-broker remotes add --role app --screen ID)."
  )
  public var attach = false

  /// The renderer (default: the terminal on a TTY unless attached).
  @Option(help: "terminal or headless (default: terminal on a TTY, unless --attach).")
  public var renderer: RendererKind?

  /// Headless: where each applied state goes, one JSON object per line.
  @Option(help: "Headless: write each applied state as a JSON line to this file (- for stdout).")
  public var frames: String?

  /// Print this app's CURVE public key and exit.
  @Flag(help: "Print this app's CURVE public key (created on first use) and exit.")
  public var printKey = false

  /// Options with their defaults.
  public init() {}
}

/// Draws nothing: an attached app shows nothing itself.
final class SilentRenderer: Renderer {
  func start() throws {}
  func render(_ frame: ScreenFrame) throws {}
  var wakeFileDescriptor: Int32? { nil }
  func handleWake() throws {}
  func stop() {}
}

/// Carries an app to the thread that runs it (only that thread uses it from then on).
private struct UncheckedApp: @unchecked Sendable {
  let app: any ScreenApp
  let options: AppOptions
}
