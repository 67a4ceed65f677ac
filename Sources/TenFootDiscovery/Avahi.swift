import CAvahi
import TenFootProtocol

/// Small helpers over Avahi's C API.
enum Avahi {
  // Avahi's constants are anonymous C enums, imported as Int; its functions take Int32.
  static let anyInterface = AvahiIfIndex(AVAHI_IF_UNSPEC)
  static let anyProtocol = AvahiProtocol(AVAHI_PROTO_UNSPEC)
  static let ipv4 = AvahiProtocol(AVAHI_PROTO_INET)

  /// Avahi's message for an error code.
  static func message(_ code: Int32) -> String {
    String(cString: avahi_strerror(code))
  }

  /// The error for a failed `avahi_client_new`: the daemon (or its D-Bus bus) missing is its
  /// own case, so the programs can say what to do.
  static func clientError(_ code: Int32) -> DiscoveryError {
    switch Int(code) {
    case AVAHI_ERR_NO_DAEMON, AVAHI_ERR_DBUS_ERROR, AVAHI_ERR_DISCONNECTED:
      .daemonUnavailable(reason: message(code))
    default: .avahi(operation: "connect to avahi-daemon", reason: message(code))
    }
  }

  /// A TXT record's strings as raw bytes.
  static func strings(_ list: UnsafeMutablePointer<AvahiStringList>?) -> [[UInt8]] {
    var entries: [[UInt8]] = []
    var node = list
    // A hostile record could be long: stop reading past what parse accepts anyway.
    while let current = node, entries.count <= BrokerAnnouncement.maxEntries {
      let size = avahi_string_list_get_size(current)
      if let text = avahi_string_list_get_text(current) {
        entries.append(Array(UnsafeBufferPointer(start: text, count: size)))
      } else {
        entries.append([])
      }
      node = avahi_string_list_get_next(current)
    }
    // Avahi keeps a list in reverse order of arrival; the order carries no meaning here.
    return entries
  }
}
