import FocusEngine
import Foundation
import TenFootProtocol
import ZeroMQ

/// A crash test with load, on real processes: remotes toggle selections on many screens of a
/// real `tenfoot-broker` with a data directory, the broker is killed with SIGKILL at a random
/// moment, started again on the same data directory, and every screen's restored state is
/// checked against what was acknowledged.
///
/// Each screen has a 1-row layout: `home` (momentary) and items `t0`…`tN` that toggle. Each
/// remote owns its own screens and keeps one request in flight: focus an item
/// (`FocusRequest`), press select, release select (the release toggles the item). So each
/// screen has at most one unacknowledged request when the broker dies, and its restored state
/// must be exactly the last acknowledged one, or that plus the one in-flight request, whole.
/// Anything else (an acknowledged change missing, a change half there) is a failure.
///
/// Used by the end-to-end test (a few rounds) and by `tenfoot-bench` (many).
public struct CrashTrial {
  /// Sizes of a trial.
  public struct Configuration: Sendable {
    /// Screens registered.
    public var screens = 24
    /// Remotes (DEALER sockets), each owning `screens / remotes` screens.
    public var remotes = 6
    /// Toggling items per screen.
    public var items = 6
    /// Kill-restart-check rounds on one data directory.
    public var rounds = 4
    /// The load runs this long (milliseconds, uniformly random) before each kill.
    public var loadMilliseconds: ClosedRange<Int> = 100...600

    /// The default sizes.
    public init() {}
  }

  /// What a trial saw.
  public struct Outcome: Sendable {
    /// Rounds run (each ended by a SIGKILL and checked after the restart).
    public var rounds = 0
    /// Requests acknowledged before the kills.
    public var acknowledged = 0
    /// Requests sent but not acknowledged when the broker died…
    public var inFlight = 0
    /// …of which the restarted broker had applied (durable before the kill, ack lost).
    public var inFlightApplied = 0
    /// Screens checked after restarts.
    public var screensChecked = 0
    /// What did not hold; empty when the trial passed.
    public var failures: [String] = []
  }

  /// One screen's durable state as the trial sees it.
  struct ScreenState: Equatable, CustomStringConvertible {
    var focused: String?
    var selected: Set<String>

    var description: String {
      "focused \(focused ?? "none"), selected [\(selected.sorted().joined(separator: ","))]"
    }
  }

  /// Runs a trial with `broker` (the tenfoot-broker executable) in a fresh directory.
  public static func run(_ configuration: Configuration, broker: String) throws -> Outcome {
    let directory = try TemporaryDirectory()
    var trial = CrashTrialRun(configuration: configuration, directory: directory, broker: broker)
    // Each round kills the broker under load; the next start (one more than the rounds)
    // checks what the kill left.
    for round in 0...configuration.rounds {
      try trial.round(round, load: round < configuration.rounds)
    }
    return trial.outcome
  }

  /// The layout every screen registers.
  static func layout(items: Int) -> Tenfoot_V1_Layout {
    var items = (0..<items).map { index in
      Item(
        id: "t\(index)", title: "Toggle \(index)",
        frame: Rect(x: 300 + Double(index) * 220, y: 100, width: 200, height: 150))
    }
    items.insert(
      Item(
        id: "home", title: "Home", frame: Rect(x: 50, y: 100, width: 200, height: 150),
        toggles: false),
      at: 0)
    return Tenfoot_V1_Layout(Layout(canvas: .tv, items: items, initialFocus: "home"))
  }
}

/// The state of a trial across its rounds.
struct CrashTrialRun {
  typealias ScreenState = CrashTrial.ScreenState
  let configuration: CrashTrial.Configuration
  let directory: TemporaryDirectory
  let broker: String
  var outcome = CrashTrial.Outcome()
  /// The last acknowledged state of each screen.
  var acknowledged: [String: ScreenState]
  let screens: [String]
  var seq: UInt64 = 0

  init(configuration: CrashTrial.Configuration, directory: TemporaryDirectory, broker: String) {
    self.configuration = configuration
    self.directory = directory
    self.broker = broker
    screens = (0..<configuration.screens).map { "c\($0)" }
    acknowledged = Dictionary(
      uniqueKeysWithValues: screens.map { ($0, ScreenState(focused: "home", selected: [])) })
  }

  /// Starts the broker, checks the restored state (after the first round), runs the load
  /// until a random moment, and kills the broker.
  mutating func round(_ round: Int, load withLoad: Bool) throws {
    let process = try ChildProcess(
      broker,
      [
        "--control", "ipc://\(directory.path)/control", "--state",
        "ipc://\(directory.path)/state", "--data-dir", "\(directory.path)/data", "--log-level",
        "warning", "--peer-rate", "1000000",
      ])
    defer { process.kill() }
    _ = try process.waitForLine(timeout: 20, "broker ready line") {
      $0.hasPrefix("tenfoot-broker ready")
    }
    let context = try Context()
    defer { context.shutdown() }
    let control = "ipc://\(directory.path)/control"
    let screenSide = try Socket(context, .dealer)
    try screenSide.connect(control)
    try checkRestored(screenSide, expectInFlight: round > 0)
    pending = [:]
    guard withLoad else { return }
    let milliseconds = Int.random(in: configuration.loadMilliseconds)
    try load(context: context, control: control, milliseconds: milliseconds)
    process.kill()
    outcome.rounds += 1
    outcome.inFlight += pending.count
  }

  /// Each screen's predicted state if its in-flight request was applied (set during load).
  var pending: [String: ScreenState] = [:]

  /// Registers every screen again (as screens do after a restart), reads its restored state
  /// and compares it with the acknowledged one (or that plus its in-flight request); then
  /// focuses `home`, which the model records as acknowledged.
  private mutating func checkRestored(_ socket: Socket, expectInFlight: Bool) throws {
    for screen in screens {
      var register = Tenfoot_V1_RegisterScreen()
      register.screenID = screen
      register.layout = CrashTrial.layout(items: configuration.items)
      guard case .ack(let ack) = try request(socket, .registerScreen(register)) else {
        throw CrashTrialError("screen \(screen): registration refused")
      }
      var snapshotRequest = Tenfoot_V1_SnapshotRequest()
      snapshotRequest.screenID = screen
      var focusHome = Tenfoot_V1_FocusRequest()
      focusHome.screenID = screen
      focusHome.item = "home"
      guard case .ack = try request(socket, .focusRequest(focusHome)),
        case .snapshot(let snapshot) = try request(socket, .snapshotRequest(snapshotRequest))
      else { throw CrashTrialError("screen \(screen): no snapshot after focusing home") }
      let restored = ScreenState(
        focused: ack.focused.isEmpty ? nil : ack.focused,
        selected: Set(snapshot.states.filter { $0.state == .selected }.map(\.id)))
      let expected = acknowledged[screen]
      acknowledged[screen] = ScreenState(focused: "home", selected: restored.selected)
      guard expectInFlight else { continue }
      outcome.screensChecked += 1
      if restored == expected { continue }
      if let inFlight = pending[screen], restored == inFlight {
        outcome.inFlightApplied += 1
        continue
      }
      outcome.failures.append(
        "round \(outcome.rounds): screen \(screen) restored as (\(restored)); last acknowledged "
          + "(\(expected.map(String.init(describing:)) ?? "none")), in flight "
          + "(\(pending[screen].map(String.init(describing:)) ?? "none"))")
    }
  }

  /// One request and its reply, in order, on `socket` (5 s at most).
  mutating func request(_ socket: Socket, _ body: Tenfoot_V1_Envelope.OneOf_Body) throws
    -> Tenfoot_V1_Envelope.OneOf_Body?
  {
    seq += 1
    try socket.send(
      Tenfoot_V1_Envelope(sender: "crash:screen", seq: seq, sentAtNanoseconds: 0, body: body)
        .encoded())
    var poller = Poller()
    poller.add(socket)
    try poller.poll(timeout: .seconds(5))
    guard let frame = try socket.receive(dontWait: true) else {
      throw CrashTrialError("no reply within 5 s")
    }
    let reply = try Tenfoot_V1_Envelope.decode(frame)
    if case .error(let error) = reply.body {
      throw CrashTrialError("request refused: \(error.code) \(error.message)")
    }
    return reply.body
  }
}

/// Why a crash trial could not run.
public struct CrashTrialError: Error, CustomStringConvertible {
  /// What went wrong.
  public let description: String

  init(_ description: String) { self.description = description }
}
