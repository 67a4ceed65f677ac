import ArgumentParser
import Foundation
import TenFootCLI
import TenFootDiscovery
import TenFootProtocol
import TenFootSecurity
import TerminalUI

extension RemoteCommand {
  /// `tenfoot-remote scan`
  struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the brokers announced on the local network (DNS-SD over mDNS).",
      discussion: """
        Asks avahi-daemon for _tenfoot._tcp services for up to --wait seconds (it stops \
        earlier once the network has answered) and prints one line per broker: its name, \
        address, key fingerprint, and whether this remote is paired with it (the key pinned \
        for its address has that fingerprint). Answers with an invalid record are refused \
        and reported on standard error. Exits 1 when avahi-daemon is not running.
        """)

    @OptionGroup var options: RemoteOptions

    @Option(help: "Seconds to wait for answers (at most).")
    var wait: Swift.Double = 3

    func validate() throws {
      guard wait.isFinite, wait > 0, wait <= 60 else {
        throw ValidationError("--wait must be a number of seconds between 0 and 60")
      }
      guard options.connection.broker == nil, options.connection.control == nil,
        options.connection.state == nil
      else { throw ValidationError("scan finds brokers: drop --broker, --control and --state") }
    }

    func run() throws {
      _ = options.logging.bootstrap(label: "tenfoot.remote")
      let trust = try options.trust()
      let started = ContinuousClock.now
      let answers: [BrowseAnswer]
      do {
        answers = try BrokerBrowser().browse(timeout: .milliseconds(Int(wait * 1000)))
      } catch {
        throw CLIError(error)
      }
      let elapsed = ContinuousClock.now - started
      var found = 0
      for answer in answers {
        switch answer {
        case .broker(let broker):
          found += 1
          let pinned = (try? trust.pinnedKey(for: broker.endpoints.control)).flatMap { $0 }
          let status =
            switch broker.trust(pinnedID: pinned.map { AllowList.id(of: $0) }) {
            case .paired: "paired"
            case .notPaired: "not paired"
            case .mismatch(let pinnedID): "KEY MISMATCH (paired with \(pinnedID))"
            }
          let announcement = broker.announcement
          let zone = announcement.zone.isEmpty ? "" : " zone=\(announcement.zone)"
          // Names come from the network: checked by the parser, shown through the filter.
          print(
            TerminalText.printable(
              "\(broker.instance)  \(broker.address)  fingerprint=\(announcement.fingerprint)  "
                + "\(status)  control=\(announcement.controlPort) "
                + "state=\(announcement.statePort) pairing=\(announcement.pairingPort)\(zone)"))
        case .refused(let instance, let address, let reason):
          FileHandle.standardError.write(
            Data(
              (TerminalText.printable(
                "refused an answer from \(address) (\"\(instance)\"): \(reason)"
              ) + "\n").utf8))
        }
      }
      let milliseconds = elapsed / .milliseconds(1)
      FileHandle.standardError.write(
        Data("scan: \(found) broker(s) in \(Int(milliseconds)) ms\n".utf8))
    }
  }
}
