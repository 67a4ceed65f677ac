import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The live device path (`tenfoot-remote device PATH…`, `--all`) with real broker and screen
/// processes. There is no /dev/input or /dev/uinput on CI machines, so the device is an
/// `evemu-record` stream in a FIFO (`--evemu-stream`): the same runner, session, unplug and
/// hot-plug handling as a libevdev node, with the FIFO's end standing for `ENODEV` and the
/// FIFO's removal and re-creation for udev's by-id link going and coming back.
@Suite("live input devices across processes", .serialized)
struct DeviceLiveTests {
  /// The keyboard fixture's descriptor lines (a Keychron C1: letters, arrows, Enter).
  static func keyboardHeader() throws -> String {
    let text = try String(
      contentsOfFile: DeviceReplayTests.recording("usb-keyboard"), encoding: .utf8)
    return text.split(separator: "\n").filter { !$0.hasPrefix("E:") }.joined(separator: "\n")
      + "\n"
  }

  /// A press and release of kernel key `code` at `second` (evemu `E:` lines).
  static func press(_ code: Int, at second: Double) -> String {
    let down = String(format: "%.6f", second)
    let up = String(format: "%.6f", second + 0.08)
    let hex = String(format: "%04x", code)
    return """
      E: \(down) 0001 \(hex) 1
      E: \(down) 0000 0000 0
      E: \(up) 0001 \(hex) 0
      E: \(up) 0000 0000 0

      """
  }

  static let keyRight = 106
  static let keyDown = 108

  /// The write end of the FIFO at `path`, once the remote has opened its read end (bounded).
  static func openWriter(_ path: String, timeout: Double = 15) throws -> Int32 {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while true {
      // Non-blocking: ENXIO until a reader has the FIFO open.
      let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
      if fd >= 0 {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
      }
      guard errno == ENXIO || errno == ENOENT, Date() < deadline else {
        throw TestFailure("the remote did not open \(path) within \(timeout) s (errno \(errno))")
      }
      usleep(20_000)
    }
  }

  static func write(_ fd: Int32, _ text: String) throws {
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw TestFailure("writing to the FIFO failed") }
  }

  static func makeFIFO(_ path: String) throws {
    guard mkfifo(path, 0o600) == 0 else { throw TestFailure("mkfifo \(path) failed") }
  }

  func remote(_ stack: Stack, _ arguments: [String]) throws -> ChildProcess {
    try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"),
      arguments + stack.endpointArguments, environment: stack.environment)
  }

  @Test("a device unplugged mid-stream: the remote says so, waits, and resumes when it is back")
  func unplugAndReturn() throws {
    signal(SIGPIPE, SIG_IGN)
    let stack = try Stack(.ipc)
    let screen = try stack.screen(["--layout", try stack.layoutFile(rows: 3, columns: 30)])
    _ = try screen.waitForFrame("first frame") { $0.focused == "r0c0" }
    let byID = stack.directory.path + "/by-id"
    try FileManager.default.createDirectory(atPath: byID, withIntermediateDirectories: true)
    let node = byID + "/usb-Keychron_C1-event-kbd"
    try Self.makeFIFO(node)

    let remote = try remote(stack, ["device", "--evemu-stream", node])
    var writer = try Self.openWriter(node)
    try Self.write(writer, try Self.keyboardHeader() + Self.press(Self.keyRight, at: 0))
    _ = try screen.waitForFrame("right from the device") { $0.focused == "r0c1" }

    // Unplugged: udev removes the by-id link, the node reads as gone.
    try FileManager.default.removeItem(atPath: node)
    close(writer)
    try remote.waitForErrorLine("the remote saying the device was unplugged") {
      $0.contains("input device unplugged; waiting for it to come back") && $0.contains(node)
    }
    #expect(remote.isRunning, "the remote must wait, not exit: \(remote.errors)")

    // Plugged in again: the link reappears; the remote reopens it and carries on.
    try Self.makeFIFO(node)
    writer = try Self.openWriter(node)
    defer { close(writer) }
    try Self.write(writer, try Self.keyboardHeader() + Self.press(Self.keyDown, at: 0))
    try remote.waitForErrorLine("the remote saying the device is back") {
      $0.contains("input device is back") && $0.contains(node)
    }
    let moved = try screen.waitForFrame("down from the device after it came back") {
      $0.focused == "r1c1"
    }
    #expect(moved.frame.focused == "r1c1")
    #expect(remote.isRunning, "\(remote.errors)")
  }

  @Test("--all follows devices plugged into the directory and skips what is not a remote")
  func followAll() throws {
    signal(SIGPIPE, SIG_IGN)
    let stack = try Stack(.ipc)
    let screen = try stack.screen(["--layout", try stack.layoutFile(rows: 3, columns: 30)])
    _ = try screen.waitForFrame("first frame") { $0.focused == "r0c0" }
    let byID = stack.directory.path + "/by-id"
    try FileManager.default.createDirectory(atPath: byID, withIntermediateDirectories: true)

    let remote = try remote(
      stack, ["device", "--all", "--directory", byID, "--evemu-stream", "--log-level", "info"])
    try remote.waitForErrorLine("the remote waiting for a device") {
      $0.contains("waiting for one to be plugged in")
    }

    // An accelerometer-like node (no keys) is opened, classified and skipped.
    let sensor = byID + "/usb-Motion_Sensor-event-if02"
    try Self.makeFIFO(sensor)
    let sensorWriter = try Self.openWriter(sensor)
    defer { close(sensorWriter) }
    try Self.write(
      sensorWriter,
      "# EVEMU 1.3\nN: Motion Sensor\nB: 03 07 00 00 00 00 00 00 00\n"
        + "################################\n#      Waiting for events      #\n"
        + "################################\n")
    try remote.waitForErrorLine("the sensor skipped") {
      $0.contains("skipping: not a kind of device followed") && $0.contains(sensor)
    }

    // A keyboard plugged in is used at once.
    let keyboard = byID + "/usb-Keychron_C1-event-kbd"
    try Self.makeFIFO(keyboard)
    let writer = try Self.openWriter(keyboard)
    defer { close(writer) }
    try Self.write(
      writer,
      try Self.keyboardHeader() + Self.press(Self.keyRight, at: 0)
        + Self.press(Self.keyRight, at: 0.2))
    try remote.waitForErrorLine("the keyboard read") {
      $0.contains("reading input device") && $0.contains(keyboard) && $0.contains("keyboard")
    }
    _ = try screen.waitForFrame("two rights from the plugged-in keyboard") {
      $0.focused == "r0c2"
    }
    #expect(remote.isRunning, "\(remote.errors)")
  }

  @Test("paths that are not input devices are refused before connecting, with a sentence")
  func notADevice() throws {
    let stack = try Stack(.ipc)
    let file = try stack.directory.write("notes.txt", "hello\n")
    let run = try stack.remote(["device", file])
    #expect(run.status == 1)
    #expect(
      run.errors.joined().contains(
        "\(file) is not a Linux input device (evdev): Inappropriate ioctl for device"),
      "\(run.errors)")
    let missing = try stack.remote(["device", stack.directory.path + "/by-id/usb-Gone-event-kbd"])
    #expect(missing.status == 1)
    #expect(missing.errors.joined().contains("No such file or directory"), "\(missing.errors)")
    let cec = try stack.remote(["cec", file])
    #expect(cec.status == 1)
    #expect(
      cec.errors.joined().contains("is not an HDMI-CEC adapter (/dev/cecN)"), "\(cec.errors)")
  }
}

struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
