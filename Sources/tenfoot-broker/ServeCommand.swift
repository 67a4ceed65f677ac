import ArgumentParser
import BrokerCore
import Foundation
import TenFootCLI
import TenFootProtocol
import ZeroMQ

/// `tenfoot-broker serve` (the default): the broker itself.
struct ServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve screens and remotes (the default subcommand).",
    discussion: """
      With no flags the broker listens on ipc:// sockets in the private runtime directory \
      ($TENFOOT_RUNTIME_DIR, else $XDG_RUNTIME_DIR/tenfoot, else /tmp/tenfoot-<uid>), where \
      tenfoot-screen and tenfoot-remote find it without flags. Prints one line \
      "tenfoot-broker ready control=… state=…" on standard output once it is listening.
      """)

  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var logging: LoggingOptions

  @Option(help: "Messages queued per screen before the state socket drops (screens resync).")
  var stateHighWaterMark: Int32 = 10_000

  func run() throws {
    let logger = logging.bootstrap(label: "tenfoot.broker")
    let endpoints: Endpoints
    do {
      endpoints = try connection.endpoints()
    } catch {
      throw ValidationError("\(error)")
    }
    var configuration = BrokerConfiguration(
      controlEndpoints: [endpoints.control], stateEndpoints: [endpoints.state])
    configuration.stateHighWaterMark = stateHighWaterMark
    for endpoint in [endpoints.control, endpoints.state] where endpoint.hasPrefix("ipc://") {
      // A broker that died leaves its socket file behind; binding over it is safe only because
      // the runtime directory is private, and it is what lets a restarted broker come back.
      unlink(String(endpoint.dropFirst("ipc://".count)))
    }
    let context = try Context()
    let broker = try BrokerThread(configuration: configuration, context: context, logger: logger)
    SignalWatcher.onTerminate { broker.stopper.stop() }
    print(
      "tenfoot-broker ready control=\(broker.controlEndpoints.joined(separator: ",")) state=\(broker.stateEndpoints.joined(separator: ",")) epoch=\(broker.epoch)"
    )
    fflush(nil)
    broker.wait()
  }
}
