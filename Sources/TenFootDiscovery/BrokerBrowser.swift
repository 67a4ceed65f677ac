import CAvahi
import Foundation
import TenFootProtocol

/// One answer to a browse: a broker whose record passed every check, or one refused.
public enum BrowseAnswer: Sendable, Equatable {
  /// A valid broker.
  case broker(DiscoveredBroker)
  /// A refused answer: its instance name and address as received (for the message only,
  /// made printable), and why.
  case refused(instance: String, address: String, reason: AnnouncementError)
}

/// Finds brokers (`_tenfoot._tcp`) through avahi-daemon: browses, resolves each instance to
/// an IPv4 address, port and TXT record, and checks the record. Synchronous, on the calling
/// thread (a simple poll); nothing is left running when it returns.
public final class BrokerBrowser {
  private let poll: OpaquePointer
  private var client: OpaquePointer?
  private var browser: OpaquePointer?
  private var answers: [BrowseAnswer] = []
  private var seen: Set<String> = []
  private var pending = 0
  private var allForNow = false
  private var failure: DiscoveryError?

  /// Connects to avahi-daemon. Throws `DiscoveryError.daemonUnavailable` when it (or the
  /// D-Bus system bus) is not running.
  public init() throws(DiscoveryError) {
    guard let poll = avahi_simple_poll_new() else {
      throw .avahi(operation: "start its event loop", reason: "out of memory")
    }
    self.poll = poll
    var code: Int32 = 0
    guard
      let client = avahi_client_new(
        avahi_simple_poll_get(poll), AvahiClientFlags(0), nil, nil, &code)
    else {
      // Every stored property is set, so deinit runs on this throw and frees the poll.
      throw Avahi.clientError(code)
    }
    self.client = client
  }

  deinit {
    // Freeing the client frees its browser and resolvers.
    if let client { avahi_client_free(client) }
    avahi_simple_poll_free(poll)
  }

  /// Browses until `timeout` has passed, or earlier once the network has answered
  /// (Avahi's "all for now" with every resolution finished) or `enough` says so.
  /// Answers are returned in arrival order, one per instance and address.
  public func browse(
    timeout: Duration, enough: ([BrowseAnswer]) -> Bool = { _ in false }
  ) throws(DiscoveryError) -> [BrowseAnswer] {
    guard let client else { return answers }
    if browser == nil {
      browser = avahi_service_browser_new(
        client, Avahi.anyInterface, Avahi.anyProtocol, BrokerAnnouncement.serviceType, nil,
        AvahiLookupFlags(0), browseCallback, Unmanaged.passUnretained(self).toOpaque())
      guard browser != nil else {
        throw .avahi(
          operation: "browse for brokers", reason: Avahi.message(avahi_client_errno(client)))
      }
    }
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
      if let failure { throw failure }
      if allForNow && pending == 0 { break }
      if enough(answers) { break }
      let left = deadline - clock.now
      let (seconds, attoseconds) = left.components
      let milliseconds = min(
        100, max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)))
      if avahi_simple_poll_iterate(poll, Int32(milliseconds)) != 0 { break }
    }
    if let failure { throw failure }
    return answers
  }

  fileprivate func browsed(
    _ interface: AvahiIfIndex, _ proto: AvahiProtocol, _ event: AvahiBrowserEvent,
    _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?
  ) {
    switch event {
    case AVAHI_BROWSER_NEW:
      guard let client, let name, let type else { return }
      // IPv4 addresses only: an IPv6 link-local address needs its interface in the endpoint.
      let resolver = avahi_service_resolver_new(
        client, interface, proto, name, type, domain, Avahi.ipv4, AvahiLookupFlags(0),
        resolveCallback, Unmanaged.passUnretained(self).toOpaque())
      if resolver != nil { pending += 1 }
    case AVAHI_BROWSER_ALL_FOR_NOW:
      allForNow = true
    case AVAHI_BROWSER_FAILURE:
      failure = .avahi(
        operation: "browse for brokers",
        reason: client.map { Avahi.message(avahi_client_errno($0)) } ?? "failure")
    default:
      break
    }
  }

  fileprivate func resolved(
    _ resolver: OpaquePointer, _ event: AvahiResolverEvent, _ name: UnsafePointer<CChar>?,
    _ address: UnsafePointer<AvahiAddress>?, _ port: UInt16,
    _ txt: UnsafeMutablePointer<AvahiStringList>?
  ) {
    defer {
      avahi_service_resolver_free(resolver)
      pending -= 1
    }
    guard event == AVAHI_RESOLVER_FOUND, let name, let address else { return }
    var buffer = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
    avahi_address_snprint(&buffer, buffer.count, address)
    let addressText = String(cString: buffer)
    // Names arrive as C strings from the network: decode leniently for the message, check
    // strictly for use.
    let instanceBytes = Array(UnsafeBufferPointer(start: name, count: strlen(name))).map {
      UInt8(bitPattern: $0)
    }
    let instance = String(decoding: instanceBytes, as: UTF8.self)
    guard seen.insert(instance + "\u{0}" + addressText).inserted else { return }
    do throws(AnnouncementError) {
      try BrokerAnnouncement.checkInstanceName(instance)
      let announcement = try BrokerAnnouncement.parse(Avahi.strings(txt))
      guard announcement.controlPort == port else {
        throw AnnouncementError.portMismatch(service: port, txt: announcement.controlPort)
      }
      answers.append(
        .broker(
          DiscoveredBroker(instance: instance, address: addressText, announcement: announcement)))
    } catch {
      answers.append(
        .refused(
          instance: BrokerAnnouncement.printable(instanceBytes), address: addressText,
          reason: error))
    }
  }
}

private func browseCallback(
  _ browser: OpaquePointer?, _ interface: AvahiIfIndex, _ proto: AvahiProtocol,
  _ event: AvahiBrowserEvent, _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?,
  _ domain: UnsafePointer<CChar>?, _ flags: AvahiLookupResultFlags,
  _ userdata: UnsafeMutableRawPointer?
) {
  guard let userdata else { return }
  Unmanaged<BrokerBrowser>.fromOpaque(userdata).takeUnretainedValue()
    .browsed(interface, proto, event, name, type, domain)
}

private func resolveCallback(
  _ resolver: OpaquePointer?, _ interface: AvahiIfIndex, _ proto: AvahiProtocol,
  _ event: AvahiResolverEvent, _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?,
  _ domain: UnsafePointer<CChar>?, _ host: UnsafePointer<CChar>?,
  _ address: UnsafePointer<AvahiAddress>?, _ port: UInt16,
  _ txt: UnsafeMutablePointer<AvahiStringList>?,
  _ flags: AvahiLookupResultFlags, _ userdata: UnsafeMutableRawPointer?
) {
  guard let resolver, let userdata else { return }
  Unmanaged<BrokerBrowser>.fromOpaque(userdata).takeUnretainedValue()
    .resolved(resolver, event, name, address, port, txt)
}
