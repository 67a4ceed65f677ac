import Foundation
import TestSupport
import Testing

/// Where the three processes meet in a test.
enum Network: String, CaseIterable, CustomStringConvertible {
  /// The embedded default: ipc:// sockets in a private runtime directory, no endpoint flags.
  case ipc
  /// tcp://127.0.0.1 on ports the broker picks, with --insecure.
  case tcp

  var description: String { rawValue }
}

/// A real broker process plus helpers to start screens and remotes against it.
final class Stack {
  let directory: TemporaryDirectory
  let environment: [String: String]
  let network: Network
  private(set) var broker: ChildProcess
  private(set) var control: String
  private(set) var state: String
  private let brokerArguments: [String]

  init(_ network: Network, brokerArguments: [String] = []) throws {
    directory = try TemporaryDirectory()
    self.network = network
    environment = ["TENFOOT_RUNTIME_DIR": directory.path + "/run"]
    var arguments = brokerArguments
    if network == .tcp {
      arguments += ["--control", "tcp://127.0.0.1:*", "--state", "tcp://127.0.0.1:*", "--insecure"]
    }
    self.brokerArguments = arguments
    (broker, control, state) = try Self.startBroker(arguments, environment: environment)
  }

  /// Kills the broker with SIGKILL (no chance to clean up) and starts a new one on the same
  /// endpoints, as a crash and a supervisor's restart would. Only for ipc, whose endpoints are
  /// fixed paths (tcp wildcards would get new ports).
  func restartBroker() throws {
    precondition(network == .ipc, "restartBroker needs fixed endpoints")
    broker.kill()
    (broker, control, state) = try Self.startBroker(brokerArguments, environment: environment)
  }

  private static func startBroker(_ arguments: [String], environment: [String: String]) throws
    -> (ChildProcess, String, String)
  {
    let broker = try ChildProcess(
      TestEnvironment.binary("tenfoot-broker"), arguments, environment: environment)
    let ready = try broker.waitForLine("broker ready line") { $0.hasPrefix("tenfoot-broker ready") }
    let fields = Dictionary(
      uniqueKeysWithValues: ready.line.split(separator: " ").compactMap { word in
        let parts = word.split(separator: "=", maxSplits: 1)
        return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
      })
    return (broker, try #require(fields["control"]), try #require(fields["state"]))
  }

  /// Endpoint flags for the other processes: none for ipc (the defaults must find the broker).
  var endpointArguments: [String] {
    network == .ipc ? [] : ["--control", control, "--state", state, "--insecure"]
  }

  /// Starts a headless screen writing frames to its stdout.
  func screen(_ arguments: [String]) throws -> ChildProcess {
    try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      arguments + ["--renderer", "headless", "--frames", "-"] + endpointArguments,
      environment: environment)
  }

  /// Starts a web screen (`tenfoot-screen … --renderer web --listen 127.0.0.1:0`, its state in
  /// the stack's directory) and returns it with the page's URL once it listens.
  func webScreen(_ arguments: [String], timeout: Double = 10) throws -> (
    web: ChildProcess, url: String
  ) {
    let web = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      arguments + [
        "--renderer", "web", "--listen", "127.0.0.1:0", "--state-dir",
        directory.path + "/screen",
      ] + endpointArguments, environment: environment)
    let line = try web.waitForLine(timeout: timeout, "the web renderer's listening line") {
      $0.hasPrefix("tenfoot-screen web http://127.0.0.1:")
    }
    return (web, String(line.line.dropFirst("tenfoot-screen web ".count)))
  }

  /// Runs a remote command to completion and returns its exit status and output.
  func remote(_ arguments: [String], stdin: FileHandle? = nil, timeout: Double = 15) throws
    -> (status: Int32, output: [String], errors: [String])
  {
    let process = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"), arguments + endpointArguments,
      environment: environment, stdin: stdin)
    let status = try process.waitForExit(timeout: timeout)
    return (status, process.output, process.errors)
  }

  /// Writes a layout file into the stack's directory.
  func layoutFile(rows: Int, columns: Int) throws -> String {
    try directory.write("grid.json", TestLayouts.gridJSON(rows: rows, columns: columns))
  }
}

/// A headless frame line, parsed.
struct Frame: CustomStringConvertible {
  let seq: Int
  let epoch: Int
  let focused: String?
  let states: [String: String]
  let event: String?
  let line: String
  /// The focused item's rotation about y, degrees (nil when nothing is focused).
  let rotateY: Double?
  /// The focused item's scale.
  let scale: Double?
  /// Text field values.
  let text: [String: String]
  /// The effects applied in this frame ("bump", "activated:<id>", …).
  let events: [String]
  /// What a screen reader says about this frame's step (its text), if anything.
  let announcement: String?
  /// The virtual items drawn (inside their group's viewport): id → title.
  let virtual: [String: String]

  init?(_ line: String) {
    guard let data = line.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let seq = object["seq"] as? Int, let epoch = object["epoch"] as? Int,
      let states = object["states"] as? [String: String]
    else { return nil }
    self.seq = seq
    self.epoch = epoch
    focused = object["focused"] as? String
    self.states = states
    event = object["event"] as? String
    self.line = line
    let parallax = object["parallax"] as? [String: Any]
    rotateY = parallax?["rotateY"] as? Double
    scale = parallax?["scale"] as? Double
    text = object["text"] as? [String: String] ?? [:]
    events = object["events"] as? [String] ?? []
    announcement = (object["announcement"] as? [String: Any])?["text"] as? String
    virtual = object["virtual"] as? [String: String] ?? [:]
  }

  var description: String { line }
}

extension ChildProcess {
  /// Waits for a frame line matching `predicate`; returns its index and the frame.
  @discardableResult
  func waitForFrame(
    from start: Int = 0, timeout: Double = 10, _ what: String, where predicate: (Frame) -> Bool
  ) throws -> (index: Int, frame: Frame) {
    let found = try waitForLine(from: start, timeout: timeout, what) { line in
      Frame(line).map(predicate) ?? false
    }
    guard let frame = Frame(found.line) else { throw ChildProcessError(description: "unparsable") }
    return (found.index, frame)
  }

  /// Every frame printed so far.
  var frames: [Frame] { output.compactMap(Frame.init) }
}
