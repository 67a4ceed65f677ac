import ArgumentParser
import BrokerCore
import Foundation
import Logging
import TenFootDiscovery
import TenFootProtocol
import TenFootSecurity
import ZoneBroker

/// How the broker announces itself on the local network (DNS-SD over mDNS, through
/// avahi-daemon), so remotes and screens find it with `--broker NAME`.
struct AnnounceOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The name this broker announces on the local network (remotes use --broker NAME).",
      discussion: "Default: the host name. At most 63 bytes, no control characters.",
      valueName: "name"))
  var name: String?

  @Flag(help: "Do not announce this broker on the local network (mDNS).")
  var noAnnounce = false

  /// The name to announce.
  var announcedName: String {
    name ?? ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init)
      ?? "tenfoot"
  }

  func validate() throws {
    if let name {
      do {
        try BrokerAnnouncement.checkInstanceName(name)
      } catch {
        throw ValidationError("--name: \(error)")
      }
    }
  }

  /// Starts announcing `broker` (a CURVE broker on TCP: the only kind a remote on another
  /// host can use), or logs why not. A machine without avahi-daemon gets one clear line and
  /// the broker serves on.
  func announce(
    _ broker: BrokerThread, security: BrokerSecurity?, zone: String, logger: Logger
  ) -> BrokerAnnouncer? {
    guard !noAnnounce else { return nil }
    guard let security, let control = broker.controlEndpoints.first,
      let state = broker.stateEndpoints.first, let pairing = broker.pairingEndpoints.first,
      let controlPort = Self.port(control), let statePort = Self.port(state),
      let pairingPort = Self.port(pairing)
    else {
      logger.info("not announced on the network: only CURVE brokers on tcp:// are announced")
      return nil
    }
    if Endpoints.isLoopback(control) {
      logger.info(
        "not announced on the network: the broker listens on loopback only",
        metadata: ["zmq.control": "\(control)"])
      return nil
    }
    let announcement = BrokerAnnouncement(
      name: announcedName, zone: zone, controlPort: controlPort, statePort: statePort,
      pairingPort: pairingPort, fingerprint: AllowList.id(of: security.keyPair.publicKey))
    do {
      return try BrokerAnnouncer(announcement, logger: logger)
    } catch .daemonUnavailable(let reason) {
      logger.warning(
        "not announced on the network: avahi-daemon is not running; remotes need the endpoints",
        metadata: ["avahi.error": "\(reason)"])
    } catch {
      logger.warning(
        "not announced on the network; remotes need the endpoints",
        metadata: ["error": "\(error)"])
    }
    return nil
  }

  /// The port of a bound `tcp://HOST:PORT` endpoint.
  static func port(_ endpoint: String) -> UInt16? {
    guard endpoint.hasPrefix("tcp://"), let colon = endpoint.lastIndex(of: ":") else {
      return nil
    }
    return UInt16(endpoint[endpoint.index(after: colon)...])
  }
}

extension BrokerAnnouncer: ZoneAnnouncement {}
