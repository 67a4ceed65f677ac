import Foundation
import InputDevices
import LinuxFiles
import LinuxInput
import Logging
import TenFootProtocol
import ZeroMQ

/// Drives the remote from live devices: an ``EventLoop`` reads every open ``DeviceSource``
/// beside inotify watchers on their directories, feeds each device's events to its own
/// ``DeviceSession`` when they are due, and follows devices coming and going.
///
/// Nothing waits inside a handler: an event stamped later than now (a stream paced by its
/// own timestamps) waits in its device's queue for a timer, as do held keys' ticks and the
/// retries of a path that does not open yet, so one device never holds up another.
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
  /// How often a path that exists but does not open yet is retried.
  public static let retryInterval: Duration = .milliseconds(250)

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

  /// An open device: what it reads, where its events go, and those not due yet.
  private struct OpenDevice {
    var source: any DeviceSource
    var session: DeviceSession
    var reading: EventLoop.ReadID
    /// Events read but stamped later than now, in order.
    var queued: [InputEvent] = []
    /// The device is gone: nothing more is read, the queue is delivered, then it is closed.
    var unplugged = false
  }

  private var client: RemoteClient!
  private var loop: EventLoop!
  private let mapping: DeviceMapping
  private let opener: DeviceOpener
  private let label: String
  /// Made after `connect` (which sets up logging).
  private var logger: Logger
  private let report: (PressResult) -> Void
  private var open: [String: OpenDevice] = [:]
  /// Paths unplugged (or not there yet), with when to retry one that exists.
  private var waiting: [String: ContinuousClock.Instant] = [:]
  private var watchers: [DirectoryWatcher] = []
  private var follow: Follow?
  /// Paths of `follow`'s directory that are not devices of a wanted kind (not retried).
  private var ignored: Set<String> = []
  /// The timer for the next tick, queued event or retry.
  private var wake: EventLoop.TimerID?

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
  /// then runs until a read fails or the broker cannot be reached.
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
    let loop = try EventLoop()
    self.loop = loop
    for watcher in watchers {
      loop.whenReadable(fileDescriptor: watcher.fileDescriptor) { [unowned self] in
        for change in watcher.drain() { changed(change, in: watcher.directory) }
      }
    }
    for (path, source) in sources { attach(source, path: path) }
    if let follow { scan(follow) }
    if open.isEmpty, follow != nil {
      logger.notice(
        "no keyboard, remote or gamepad yet; waiting for one to be plugged in",
        metadata: ["device.directory": "\(follow?.directory ?? "")"])
    }
    loop.eachIteration { [unowned self] in try catchUp() }
    try loop.run()
  }

  private func attach(_ source: any DeviceSource, path: String) {
    let session = DeviceSession(
      client: client, device: path, mapping: mapping, description: source.description,
      logger: logger, report: report)
    let reading = loop.whenReadable(fileDescriptor: source.fileDescriptor) { [unowned self] in
      try readDevice(path)
    }
    open[path] = OpenDevice(source: source, session: session, reading: reading)
    waiting[path] = nil
    // Read once without waiting for readiness: a source may hold events already.
    loop.schedule(after: .zero) { [unowned self] in
      guard open[path]?.source === source else { return }
      try readDevice(path)
    }
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
        waiting[path] = loop.now + Self.retryInterval
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

  private func readDevice(_ path: String) throws {
    guard let device = open[path], !device.unplugged else { return }
    switch try device.source.read() {
    case .events(let events):
      open[path]?.queued.append(contentsOf: events)
    case .unplugged:
      loop.stopReading(device.reading)
      open[path]?.unplugged = true
    }
    try deliverDue(path, now: MonotonicClock.now)
  }

  /// Hands `path`'s queued events due by `now` to its session (the ticks due before each
  /// first); closes an unplugged device once its queue is empty.
  private func deliverDue(_ path: String, now: MonotonicInstant) throws {
    guard let device = open[path] else { return }
    var delivered = 0
    for event in device.queued {
      guard event.instant <= now else { break }
      try device.session.tick(until: event.instant)
      try device.session.handle(event)
      delivered += 1
    }
    if delivered > 0 { open[path]?.queued.removeFirst(delivered) }
    guard device.unplugged, open[path]?.queued.isEmpty == true else { return }
    try device.session.releaseAll(at: now)
    open[path] = nil
    waiting[path] = loop.now + Self.retryInterval
    logger.notice(
      "input device unplugged; waiting for it to come back", metadata: ["device.path": "\(path)"])
  }

  /// At the end of each iteration: what came due (ticks of held keys, queued events, retries
  /// of paths that exist again), then the one timer for what comes due next.
  private func catchUp() throws {
    let now = MonotonicClock.now
    for path in open.keys.sorted() {
      try open[path]?.session.tick(until: now + .nanoseconds(1))
      try deliverDue(path, now: now)
    }
    let loopNow = loop.now
    for (path, retry) in waiting
    where retry <= loopNow && FileManager.default.fileExists(atPath: path) {
      reopen(path)
    }
    var due = open.values.compactMap {
      [$0.session.nextTickAt, $0.queued.first?.instant].compactMap { $0 }.min()
    }.min()
      .map { loopNow + ($0 - now) }
    for (path, retry) in waiting where FileManager.default.fileExists(atPath: path) {
      due = min(due ?? retry, retry)
    }
    if let wake { loop.cancel(wake) }
    wake = due.map { loop.schedule(at: $0) {} }
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
      waiting[path] = loop.now + Self.retryInterval
      logger.debug("not reopened yet", metadata: ["device.path": "\(path)", "error": "\(error)"])
    }
  }
}
