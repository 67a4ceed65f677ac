import Foundation
import InputDevices
import LinuxFiles
import LinuxInput
import Logging
import TenFootProtocol

#if canImport(Glibc)
  import Glibc
#endif

/// Drives the remote from live devices: polls every open ``DeviceSource`` beside inotify
/// watchers on their directories, feeds each device's events to its own ``DeviceSession``,
/// and follows devices coming and going.
///
/// - A device that goes away mid-stream (`ENODEV`, a stream's end) has its keys released,
///   is logged as unplugged, and is opened again when its path reappears (udev re-creates
///   the `/dev/input/by-id` link, a FIFO is made again); while the path exists but cannot be
///   opened yet (udev still setting permissions) it is retried every ``retryInterval``.
/// - With a ``Follow`` directory (`--all`), every node appearing there whose kind is
///   wanted is opened too.
///
/// Runs until a device fails for good (a read error) or the broker cannot be reached: it
/// waits for devices forever otherwise (stop it with a signal).
public final class DeviceRunner {
  /// How often a path that exists but does not open yet is retried, nanoseconds.
  public static let retryInterval: UInt64 = 250_000_000

  /// Every node in `directory` of one of `kinds` (`--all`).
  public struct Follow: Sendable {
    public var directory: String
    public var kinds: Set<DeviceKind>
    /// A follow of `directory` for devices of `kinds`.
    public init(directory: String, kinds: Set<DeviceKind>) {
      self.directory = directory
      self.kinds = kinds
    }
  }

  private var client: RemoteClient!
  private let mapping: DeviceMapping
  private let opener: DeviceOpener
  private let label: String
  /// Made after `connect` (which sets up logging).
  private var logger: Logger
  private let report: (PressResult) -> Void
  private var open: [String: (source: any DeviceSource, session: DeviceSession)] = [:]
  /// Paths unplugged (or not there yet), with when to retry one that exists.
  private var waiting: [String: UInt64] = [:]
  private var watchers: [DirectoryWatcher] = []
  private var follow: Follow?
  /// Devices just opened: read once without waiting (a source may hold events already).
  private var fresh: Set<String> = []
  /// Paths of `follow`'s directory that are not devices of a wanted kind (not retried).
  private var ignored: Set<String> = []

  /// A runner opening devices with `opener`, logging as `label`.
  public init(
    mapping: DeviceMapping, opener: @escaping DeviceOpener, label: String,
    report: @escaping (PressResult) -> Void
  ) {
    self.mapping = mapping
    self.opener = opener
    self.label = label
    logger = Logger(label: label)
    self.report = report
  }

  /// Opens `paths` (each must open now: a wrong path is refused with ``DeviceSourceError``
  /// before `connect` is called), connects, opens the wanted devices in `follow`'s directory,
  /// then runs.
  public func run(paths: [String], follow: Follow?, connect: () throws -> RemoteClient) throws {
    self.follow = follow
    var sources: [(String, any DeviceSource)] = []
    for path in paths { sources.append((path, try opener(path))) }
    var directories = Set(paths.map { ($0 as NSString).deletingLastPathComponent })
    if let follow { directories.insert(follow.directory) }
    for directory in directories.sorted() {
      watchers.append(try DirectoryWatcher(directory: directory.isEmpty ? "." : directory))
    }
    client = try connect()
    logger = Logger(label: label)
    for (path, source) in sources { attach(source, path: path) }
    if let follow { scan(follow) }
    if open.isEmpty, follow != nil {
      logger.notice(
        "no keyboard, remote or gamepad yet; waiting for one to be plugged in",
        metadata: ["device.directory": "\(follow?.directory ?? "")"])
    }
    while true { try iterate() }
  }

  private func attach(_ source: any DeviceSource, path: String) {
    let session = DeviceSession(
      client: client, device: path, mapping: mapping, description: source.description,
      logger: logger, report: report)
    open[path] = (source, session)
    waiting[path] = nil
    fresh.insert(path)
    logger.notice(
      "reading input device",
      metadata: [
        "device.path": "\(path)", "device.name": "\(source.description.name)",
        "device.kind": "\(source.description.kind?.rawValue ?? "unknown")",
      ])
  }

  /// Opens every wanted device of `follow`'s directory not open yet.
  private func scan(_ follow: Follow) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: follow.directory)) ?? []
    for name in names.sorted() { tryFollowed(follow, name: name) }
  }

  private func tryFollowed(_ follow: Follow, name: String) {
    let path = (follow.directory as NSString).appendingPathComponent(name)
    // by-id also holds the legacy joystick (js*) and mouse nodes: only event nodes are evdev.
    guard name.contains("event"), open[path] == nil, !ignored.contains(path) else { return }
    let source: any DeviceSource
    do {
      source = try opener(path)
    } catch {
      if error.isTransient {
        waiting[path] = MonotonicClock.nanoseconds() + Self.retryInterval
      } else {
        ignored.insert(path)
        logger.info("skipping", metadata: ["device.path": "\(path)", "error": "\(error)"])
      }
      return
    }
    guard let kind = source.description.kind, follow.kinds.contains(kind) else {
      ignored.insert(path)
      logger.info(
        "skipping: not a kind of device followed",
        metadata: [
          "device.path": "\(path)", "device.name": "\(source.description.name)",
          "device.kind": "\(source.description.kind?.rawValue ?? "none")",
        ])
      return
    }
    attach(source, path: path)
  }

  private func iterate() throws {
    let now = MonotonicClock.nanoseconds()
    var deadline = open.values.compactMap { $0.session.nextTickAt }.min()
    for (path, retry) in waiting where FileManager.default.fileExists(atPath: path) {
      deadline = min(deadline ?? retry, retry)
    }
    let timeout: Int32 =
      !fresh.isEmpty
      ? 0
      : deadline.map { $0 <= now ? 0 : Int32(min(60_000, ($0 - now + 999_999) / 1_000_000)) } ?? -1
    let devices = open.sorted { $0.key < $1.key }
    let paths = devices.map(\.key)
    var items =
      devices.map { pollfd(fd: $0.value.source.fileDescriptor, events: Int16(POLLIN), revents: 0) }
      + watchers.map { pollfd(fd: $0.fileDescriptor, events: Int16(POLLIN), revents: 0) }
    let ready = poll(&items, nfds_t(items.count), timeout)
    if ready < 0, errno != EINTR {
      throw DeviceSourceError("poll failed: \(String(cString: strerror(errno)))")
    }
    for (index, path) in paths.enumerated() where items[index].revents != 0 || fresh.contains(path)
    {
      fresh.remove(path)
      try readDevice(path)
    }
    for (index, watcher) in watchers.enumerated() where items[paths.count + index].revents != 0 {
      for change in watcher.drain() { changed(change, in: watcher.directory) }
    }
    let after = MonotonicClock.nanoseconds()
    for entry in open.values { try entry.session.tick(until: after + 1) }
    for (path, retry) in waiting
    where retry <= after && FileManager.default.fileExists(atPath: path) {
      reopen(path)
    }
  }

  private func readDevice(_ path: String) throws {
    guard let (source, session) = open[path] else { return }
    switch try source.read() {
    case .events(let events):
      for event in events {
        try session.tick(until: event.time)
        RemoteClient.wait(until: event.time)
        try session.handle(event)
      }
    case .unplugged:
      try session.releaseAll(at: MonotonicClock.nanoseconds())
      open[path] = nil
      waiting[path] = MonotonicClock.nanoseconds() + Self.retryInterval
      logger.notice(
        "input device unplugged; waiting for it to come back", metadata: ["device.path": "\(path)"])
    }
  }

  private func changed(_ change: DirectoryWatcher.Change, in directory: String) {
    switch change {
    case .appeared(let name):
      let path = (directory as NSString).appendingPathComponent(name)
      ignored.remove(path)
      if waiting[path] != nil {
        reopen(path)
      } else if let follow, follow.directory == directory {
        tryFollowed(follow, name: name)
      }
    case .disappeared(let name):
      ignored.remove((directory as NSString).appendingPathComponent(name))
    case .written:
      break  // Not asked for: device nodes come and go, they are not written in place.
    case .overflowed:
      if let follow { scan(follow) }
      for path in waiting.keys { reopen(path) }
    }
  }

  private func reopen(_ path: String) {
    guard open[path] == nil else { return }
    do {
      let source = try opener(path)
      attach(source, path: path)
      logger.notice("input device is back", metadata: ["device.path": "\(path)"])
    } catch {
      // Not usable yet (permissions being set) or gone again: retry while the path exists.
      waiting[path] = MonotonicClock.nanoseconds() + Self.retryInterval
      logger.debug("not reopened yet", metadata: ["device.path": "\(path)", "error": "\(error)"])
    }
  }
}
