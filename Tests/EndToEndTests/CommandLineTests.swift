import Foundation
import TestSupport
import Testing

/// The executables' command lines, run as the built binaries: shared options before or after
/// the subcommand, values argument-parser checks, and the help text (text snapshots).
@Suite("Command lines: shared options in either place, checked values, help", .serialized)
struct CommandLineTests {
  /// Runs a built executable to completion; returns its status, stdout and stderr lines.
  static func run(
    _ program: String, _ arguments: [String], environment: [String: String] = [:]
  ) throws -> (status: Int32, output: [String], errors: [String]) {
    let process = try ChildProcess(
      TestEnvironment.binary(program), arguments,
      environment: environment.merging(["COLUMNS": "100"]) { $1 })
    let status = try process.waitForExit(timeout: 20)
    return (status, process.output, process.errors)
  }

  @Test("tenfoot-remote takes --control, --state and --insecure before or after the subcommand")
  func remoteOptionsEitherSide() throws {
    let stack = try Stack(.tcp)
    let screen = try stack.screen(["--layout", try stack.layoutFile(rows: 1, columns: 4)])
    try screen.waitForFrame("the screen's first frame") { $0.focused == "r0c0" }
    let flags = stack.endpointArguments
    #expect(flags.contains("--insecure") && flags.first == "--control", "\(flags)")
    let env = stack.environment

    let before = try Self.run("tenfoot-remote", flags + ["press", "right"], environment: env)
    #expect(before.status == 0, "\(before.errors)")
    #expect(before.output == ["right: focus r0c0 → r0c1 (right); focused r0c1"], "\(before)")

    let after = try Self.run("tenfoot-remote", ["press", "right"] + flags, environment: env)
    #expect(after.status == 0, "\(after.errors)")
    #expect(after.output == ["right: focus r0c1 → r0c2 (right); focused r0c2"], "\(after)")

    // Split around the subcommand and its own option, with a shared option in between.
    let mixed = try Self.run(
      "tenfoot-remote",
      Array(flags.prefix(2)) + ["focus", "--timeout", "5", "--item", "r0c3"] + flags.dropFirst(2),
      environment: env)
    #expect(mixed.status == 0, "\(mixed.errors)")
    #expect(mixed.output.first?.hasSuffix("focused r0c3") == true, "\(mixed)")
    try screen.waitForFrame("the screen following all three") { $0.focused == "r0c3" }
  }

  @Test("tenfoot-broker takes --data-dir before or after key and remotes subcommands")
  func brokerDataDirEitherSide() throws {
    let directory = try TemporaryDirectory()
    let data = directory.path + "/broker"
    let before = try Self.run("tenfoot-broker", ["--data-dir", data, "key"])
    #expect(before.status == 0, "\(before.errors)")
    let key = try #require(before.output.first)
    #expect(key.count == 40, "a Z85 public key: \(key)")
    let after = try Self.run("tenfoot-broker", ["key", "--data-dir", data])
    #expect(after.output == [key], "the same data directory, the same key: \(after)")

    let screenKey = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"
    let added = try Self.run(
      "tenfoot-broker",
      [
        "--data-dir", data, "remotes", "add", "--name", "tv", "--role", "screen", "--key",
        screenKey,
      ])
    #expect(added.status == 0, "\(added.errors)")
    let listed = try Self.run("tenfoot-broker", ["remotes", "list", "--data-dir", data])
    #expect(listed.status == 0, "\(listed.errors)")
    #expect(listed.output.count == 1 && listed.output[0].contains("  screen  tv  "), "\(listed)")
    let between = try Self.run("tenfoot-broker", ["remotes", "--data-dir", data, "list"])
    #expect(between.output == listed.output, "\(between)")
  }

  @Test(
    "a key that starts with -= is taken after --key and --broker-key (one Z85 key in 7,225 does)")
  func dashLedKeys() throws {
    let directory = try TemporaryDirectory()
    let key = "-=yo/1{e[o*]}coZ03p1..!=@:&sE/[8N)-G9M9)"
    let added = try Self.run(
      "tenfoot-broker",
      [
        "remotes", "add", "--data-dir", directory.path, "--name", "r", "--role", "remote", "--key",
        key,
      ])
    #expect(added.status == 0, "\(added.errors)")
    // The remote takes the key as the broker's: it gets as far as connecting (nothing listens).
    let remote = try Self.run(
      "tenfoot-remote",
      [
        "press", "right", "--control", "ipc://\(directory.path)/none", "--broker-key", key,
        "--state-dir", directory.path + "/remote", "--timeout", "0.2",
      ])
    #expect(remote.status != 0)
    #expect(!remote.errors.joined().contains("Invalid option"), "\(remote.errors)")
  }

  @Test(
    "bad values are usage errors (status 64) that name what is accepted",
    arguments: [
      (
        ["tenfoot-broker", "remotes", "add", "--name", "x", "--role", "printer", "--key", "k"],
        "'remote', 'screen' or 'app'"
      ),
      (
        [
          "tenfoot-broker", "remotes", "add", "--name", "tv\u{1B}]0;OWNED\u{07}", "--key",
          "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7",
        ],
        "--name: contains control character U+001B"
      ),
      (["tenfoot-remote", "press", "sideways"], "\n  - play-pause\n"),
      (["tenfoot-remote", "swipe", "diagonal"], "'left'"),
      (["tenfoot-remote", "swipe", "left", "--speed", "warp"], "'slow'"),
      (["tenfoot-remote", "swipe", "left", "--distance", "3"], "at most 2 units"),
      (["tenfoot-remote", "swipe", "left", "--speed", "fast", "--velocity", "4"], "not both"),
      (["tenfoot-remote", "hold", "right", "--for", "2min"], "bad duration \"2min\""),
      (["tenfoot-remote", "drag", "--to", "2,0"], "bad point \"2,0\""),
      (["tenfoot-remote", "--wait-for-screen", "5", "pair"], "pairing drives no screen"),
      (["tenfoot-remote", "debug", "--dry-run", "sideways"], "\n  - shift-tab"),
      (["tenfoot-bench", "run", "--only", "latency,flood"], "\n  - flood"),
      (["tenfoot-broker", "--io-threads", "0"], "--io-threads must be between 1 and 8"),
    ])
  func badValues(command: [String], says: String) throws {
    let directory = try TemporaryDirectory()
    let result = try Self.run(
      command[0], Array(command.dropFirst()),
      environment: ["TENFOOT_RUNTIME_DIR": directory.path, "TENFOOT_STATE_DIR": directory.path])
    #expect(result.status == 64, "\(command): \(result)")
    #expect(result.errors.joined(separator: "\n").contains(says), "\(command): \(result.errors)")
  }

  @Test(
    "a problem of the machine, not of the command line, is exit 1 with its fix and no usage",
    arguments: [
      (["tenfoot-broker"], "chmod 700"),
      (["tenfoot-screen", "--renderer", "headless"], "chmod 700"),
      (["tenfoot-remote", "press", "right"], "chmod 700"),
      (["tenfoot-remote", "script", "/nonexistent/script.txt"], "cannot read /nonexistent"),
    ])
  func runtimeErrors(command: [String], says: String) throws {
    let directory = try TemporaryDirectory()
    // A runtime directory other users can enter: the sockets in it would be theirs to use.
    let runtime = directory.path + "/run"
    #expect(mkdir(runtime, 0o755) == 0 && chmod(runtime, 0o755) == 0)
    let result = try Self.run(
      command[0], Array(command.dropFirst()),
      environment: ["TENFOOT_RUNTIME_DIR": runtime, "TENFOOT_STATE_DIR": directory.path + "/s"])
    let errors = result.errors.joined(separator: "\n")
    #expect(result.status == 1, "\(command): \(result)")
    #expect(errors.contains("Error: ") && errors.contains(says), "\(command): \(errors)")
    #expect(!errors.contains("Usage:"), "\(command) printed the usage:\n\(errors)")
  }

  @Test(
    "help text (snapshots; RECORD_SNAPSHOTS=1 re-records)",
    arguments: [
      ("remote-help", ["tenfoot-remote", "--help"]),
      ("remote-swipe-help", ["tenfoot-remote", "help", "swipe"]),
      ("broker-help", ["tenfoot-broker", "--help"]),
      ("broker-remotes-add-help", ["tenfoot-broker", "help", "remotes", "add"]),
    ])
  func help(name: String, command: [String]) throws {
    let result = try Self.run(command[0], Array(command.dropFirst()))
    #expect(result.status == 0, "\(result.errors)")
    let mismatch = TextSnapshot.mismatch(result.output.joined(separator: "\n"), named: name)
    #expect(mismatch == nil, "\(mismatch ?? "")")
  }
}
