import CAvahi
import Foundation
import Logging
import TenFootProtocol

/// Announces a broker as `_tenfoot._tcp` through avahi-daemon, on Avahi's own thread (a
/// threaded poll), until `stop`. Renames itself if another service has the name ("Living room
/// #2"), and logs what it did.
public final class BrokerAnnouncer: @unchecked Sendable {
  // @unchecked Sendable is sound: `client`, `group` and `announcement` are touched only by
  // Avahi's callbacks on its poll thread, and by `stop` once that thread has ended; `stopped`
  // is guarded by `stopLock`.
  private let poll: OpaquePointer
  private var client: OpaquePointer?
  private var group: OpaquePointer?
  private var announcement: BrokerAnnouncement
  private let logger: Logger
  private var stopped = false
  private let stopLock = NSLock()

  /// Starts announcing `announcement` (checked first). Throws `DiscoveryError.daemonUnavailable`
  /// when avahi-daemon is not running: the broker logs it and serves on.
  public init(_ announcement: BrokerAnnouncement, logger: Logger) throws(DiscoveryError) {
    do {
      try announcement.validate()
    } catch {
      throw .avahi(operation: "announce this broker", reason: error.description)
    }
    guard let poll = avahi_threaded_poll_new() else {
      throw .avahi(operation: "start its event loop", reason: "out of memory")
    }
    self.poll = poll
    self.announcement = announcement
    self.logger = logger
    var code: Int32 = 0
    // The client's first callback runs inside avahi_client_new, on this thread, before the
    // poll thread starts: `self` is complete by then.
    guard
      let client = avahi_client_new(
        avahi_threaded_poll_get(poll), AvahiClientFlags(0), clientCallback,
        Unmanaged.passUnretained(self).toOpaque(), &code)
    else {
      // Every stored property is set, so deinit runs on these throws and frees what exists.
      throw Avahi.clientError(code)
    }
    self.client = client
    guard avahi_threaded_poll_start(poll) == 0 else {
      throw .avahi(operation: "start its event loop", reason: "pthread_create failed")
    }
  }

  deinit { stop() }

  /// Withdraws the announcement and ends Avahi's thread.
  public func stop() {
    let first = stopLock.withLock {
      defer { stopped = true }
      return !stopped
    }
    guard first else { return }
    // Stops and joins Avahi's thread (a no-op if it never started): no callback runs after.
    avahi_threaded_poll_stop(poll)
    // Freeing the client frees its entry group, which withdraws the records (goodbye packets).
    if let client { avahi_client_free(client) }
    client = nil
    group = nil
    avahi_threaded_poll_free(poll)
  }

  fileprivate func clientChanged(_ client: OpaquePointer, _ state: AvahiClientState) {
    switch state {
    case AVAHI_CLIENT_S_RUNNING:
      register(client)
    case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
      // The host name changes: withdraw; S_RUNNING comes again and registers anew.
      if let group { avahi_entry_group_reset(group) }
    case AVAHI_CLIENT_FAILURE:
      logger.error(
        "mDNS announcement stopped: lost avahi-daemon; endpoints still work",
        metadata: ["error": "\(Avahi.message(avahi_client_errno(client)))"])
    default:
      break
    }
  }

  fileprivate func groupChanged(_ group: OpaquePointer, _ state: AvahiEntryGroupState) {
    switch state {
    case AVAHI_ENTRY_GROUP_ESTABLISHED:
      logger.notice(
        "announced on the local network (mDNS)",
        metadata: [
          "dnssd.name": "\(announcement.name)", "dnssd.type": "\(BrokerAnnouncement.serviceType)",
          "broker.fingerprint": "\(announcement.fingerprint)",
        ])
    case AVAHI_ENTRY_GROUP_COLLISION:
      // Another service has the name: take Avahi's alternative ("NAME #2") and try again.
      guard let alternative = avahi_alternative_service_name(announcement.name) else { return }
      let renamed = String(cString: alternative)
      avahi_free(alternative)
      logger.warning(
        "another service on the network has this broker's name: announcing under another",
        metadata: ["dnssd.name": "\(announcement.name)", "dnssd.renamed": "\(renamed)"])
      if renamed.utf8.count <= BrokerAnnouncement.maxNameBytes { announcement.name = renamed }
      avahi_entry_group_reset(group)
      if let client { register(client) }
    case AVAHI_ENTRY_GROUP_FAILURE:
      logger.error(
        "mDNS announcement failed; endpoints still work",
        metadata: [
          "error": "\(Avahi.message(avahi_client_errno(avahi_entry_group_get_client(group))))"
        ])
    default:
      break
    }
  }

  private func register(_ client: OpaquePointer) {
    if group == nil {
      group = avahi_entry_group_new(
        client, groupCallback, Unmanaged.passUnretained(self).toOpaque())
    }
    guard let group else {
      logger.error(
        "mDNS announcement failed; endpoints still work",
        metadata: ["error": "\(Avahi.message(avahi_client_errno(client)))"])
      return
    }
    guard avahi_entry_group_is_empty(group) != 0 else { return }
    // avahi_string_list_add prepends: add in reverse to keep the documented order.
    var txt: UnsafeMutablePointer<AvahiStringList>?
    for entry in announcement.txtStrings.reversed() { txt = avahi_string_list_add(txt, entry) }
    defer { avahi_string_list_free(txt) }
    var code = avahi_entry_group_add_service_strlst(
      group, Avahi.anyInterface, Avahi.anyProtocol, AvahiPublishFlags(0), announcement.name,
      BrokerAnnouncement.serviceType, nil, nil, announcement.controlPort, txt)
    if code == Int32(AVAHI_ERR_COLLISION) {
      groupChanged(group, AVAHI_ENTRY_GROUP_COLLISION)
      return
    }
    if code == 0 { code = avahi_entry_group_commit(group) }
    if code != 0 {
      logger.error(
        "mDNS announcement failed; endpoints still work",
        metadata: ["error": "\(Avahi.message(code))"])
    }
  }
}

private func clientCallback(
  _ client: OpaquePointer?, _ state: AvahiClientState, _ userdata: UnsafeMutableRawPointer?
) {
  guard let client, let userdata else { return }
  Unmanaged<BrokerAnnouncer>.fromOpaque(userdata).takeUnretainedValue()
    .clientChanged(client, state)
}

private func groupCallback(
  _ group: OpaquePointer?, _ state: AvahiEntryGroupState, _ userdata: UnsafeMutableRawPointer?
) {
  guard let group, let userdata else { return }
  Unmanaged<BrokerAnnouncer>.fromOpaque(userdata).takeUnretainedValue()
    .groupChanged(group, state)
}
