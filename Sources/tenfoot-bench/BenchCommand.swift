import ArgumentParser
import Foundation

/// `tenfoot-bench`: TenFoot's benchmarks. Prints figures and writes JSON; never judges them.
@main
struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tenfoot-bench",
    abstract: "Measures TenFoot against bare ZeroMQ: latency, throughput, scale, start-up.",
    discussion: """
      Run through scripts/bench, which builds in release mode. Expects tenfoot-broker, \
      tenfoot-screen and tenfoot-remote beside this executable (or in $TENFOOT_BIN_DIR).
      """,
    subcommands: [
      RunCommand.self, CompareCommand.self, FloorRelayCommand.self, FlooderCommand.self,
      AbuserCommand.self,
      FailoverCommand.self,
      ZonesCommand.self,
    ],
    defaultSubcommand: RunCommand.self)
}

/// `tenfoot-bench floor-relay`: the bare ZeroMQ relay the latency floor is measured against.
struct FloorRelayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "floor-relay", abstract: "Bare ROUTER + PUB relay (started by the benchmark).")

  @Option var control: String
  @Option var state: String
  @Option var replyBytes: Int
  @Option var topic: String
  @Option var publicationBytes: Int
  /// Unconditional: a Z85 key may start with "-", which would otherwise look like a flag (the
  /// durable part failed on such a key).
  @Option(
    parsing: .unconditional, help: "Make the sockets CURVE servers with this secret key (Z85).")
  var curveSecretKey: String?
  @Option(help: "Write and fdatasync a WAL frame in this directory before every other reply.")
  var walDirectory: String?

  func run() throws {
    try FloorRelay(
      control: control, state: state, replyBytes: replyBytes, topic: topic,
      publicationBytes: publicationBytes, curveSecretKey: curveSecretKey,
      walDirectory: walDirectory
    ).run()
  }
}
