import ArgumentParser
import Foundation
import InputDevices
import LinuxInput
import Logging
import RemoteCore
import TenFootCLI

extension RemoteCommand {
  /// `tenfoot-remote device PATH… | --all | --replay FILE [--grab] [--mapping FILE]`
  struct Device: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Use a keyboard, media remote, gamepad or touchpad (Linux input devices) as the remote.",
      discussion: """
        Reads /dev/input event nodes through libevdev: kernel key presses, autorepeats and \
        releases become the remote's presses and holds, with the kernel's timestamps; a \
        mouse or touchpad moves the pointer and its button clicks (--pointer-model \
        touch-surface makes its motion Siri Remote swipes instead). The \
        mapping (docs/input-devices.md) maps arrows, Enter/OK/Select, Esc/Back/Menu, Home, \
        Play/Pause and a gamepad's D-pad, left stick, south, east and start buttons by \
        default. A device unplugged mid-stream is waited for and used again when it comes \
        back. Reading /dev/input needs the 'input' group. --replay plays an evemu-record \
        file through the same path, in real time.
        """)

    @OptionGroup var options: RemoteOptions

    @Argument(
      help: "Input event nodes (/dev/input/by-id/…-event-kbd, /dev/input/eventN).",
      completion: .file())
    var paths: [String] = []

    @Flag(help: "Every keyboard, remote and gamepad in --directory, following hot-plug.")
    var all = false

    @Flag(help: "With --all, mice and touchpads too.")
    var pointers = false

    @Option(help: "The directory --all follows.", completion: .directory)
    var directory = "/dev/input/by-id"

    @Flag(help: "Grab the devices (EVIOCGRAB): other programs stop seeing their input.")
    var grab = false

    @Flag(
      help: """
        The paths are evemu-record text streams (FIFOs, files) instead of event nodes; \
        end of file is an unplug.
        """)
    var evemuStream = false

    @Option(help: "Play this evemu-record file.", completion: .file())
    var replay: String?

    @Option(help: "A mapping file (JSON) over the defaults.", completion: .file())
    var mapping: String?

    @Option(
      help: """
        Where mice and touchpads go: 'pointer' (the pointer model) or 'touch-surface' (the \
        Siri Remote's swipes). Default: the mapping file's "pointer" model, else pointer.
        """)
    var pointerModel: PointerSettings.Model?

    func validate() throws {
      let modes = (replay != nil ? 1 : 0) + (paths.isEmpty ? 0 : 1) + (all ? 1 : 0)
      if replay != nil, modes > 1 {
        throw ValidationError("--replay plays one file: give no device paths and no --all")
      }
      if modes == 0 {
        throw ValidationError(
          "name the devices (tenfoot-remote device /dev/input/by-id/…), or use --all or --replay FILE"
        )
      }
      if pointers, !all { throw ValidationError("--pointers goes with --all") }
      if grab, evemuStream { throw ValidationError("--grab is for event nodes, not streams") }
    }

    func run() throws {
      var mapping =
        try self.mapping.map { path throws(DeviceMappingError) in
          try DeviceMapping.load(path: path)
        } ?? .defaults
      if let pointerModel { mapping.pointer.model = pointerModel }
      if let replay {
        try play(replay, mapping: mapping)
        return
      }
      let opener =
        evemuStream ? EvemuStreamSource.opener() : EvdevSource.opener(grab: grab)
      if all, !FileManager.default.fileExists(atPath: directory) {
        throw CLIError(
          "\(directory) does not exist: this machine has no input devices yet (--directory "
            + "names another)")
      }
      let runner = DeviceRunner(
        mapping: mapping, opener: opener, label: "tenfoot.remote.device", report: Self.report)
      let kinds: Set<DeviceKind> =
        pointers
        ? [.keyboard, .remote, .gamepad, .pointer]
        : [.keyboard, .remote, .gamepad]
      do {
        try runner.run(
          paths: paths,
          follow: all ? DeviceRunner.Follow(directory: directory, kinds: kinds) : nil,
          connect: { try options.connect() })
      } catch let error as DeviceSourceError {
        // A path that is not a usable device: refused with its sentence, exit status 1.
        throw CLIError(error)
      }
    }

    static func report(_ result: PressResult) {
      print(result.line)
      fflush(nil)
    }

    private func play(_ file: String, mapping: DeviceMapping) throws {
      let text: String
      do {
        text = try String(contentsOfFile: file, encoding: .utf8)
      } catch {
        throw CLIError("cannot read \(file)", cause: error)
      }
      let recording: EvemuRecording
      do {
        recording = try EvemuRecording.parse(text)
      } catch {
        throw ValidationError("\(file): \(error)")
      }
      let remote = try options.connect()
      let session = DeviceSession(
        client: remote, device: file, mapping: mapping, description: recording.device,
        logger: Logger(label: "tenfoot.remote.device"), report: Self.report)
      try EvemuReplay.play(recording, through: session)
    }
  }

  /// `tenfoot-remote cec [PATH] [--name NAME]`
  struct Cec: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "cec",
      abstract: "Use the TV's own remote over HDMI-CEC (/dev/cecN) as the remote.",
      discussion: """
        Claims a logical address as a playback device on the adapter and turns User Control \
        Pressed/Released messages into key presses and holds, with the messages' receive \
        timestamps. Needs access to the /dev/cecN node (often the 'video' group).
        """)

    @OptionGroup var options: RemoteOptions

    @Argument(help: "The CEC adapter.", completion: .file())
    var path = "/dev/cec0"

    @Option(help: "The name the TV shows for this device (up to 14 characters).")
    var name = "TenFoot"

    func validate() throws {
      guard !name.isEmpty, name.utf8.count <= 14, name.allSatisfy({ $0.isASCII && !$0.isNewline })
      else {
        throw ValidationError("--name is 1 to 14 ASCII characters (the CEC OSD name)")
      }
    }

    func run() throws {
      let adapter: CECAdapter
      do {
        adapter = try CECAdapter(path: path, name: name)
      } catch {
        throw CLIError(error)
      }
      let remote = try options.connect()
      let logger = Logger(label: "tenfoot.remote.cec")
      logger.notice("reading HDMI-CEC", metadata: ["cec.path": "\(path)"])
      let runner = try CECRunner(
        client: remote, device: path, fileDescriptor: adapter.fileDescriptor,
        receive: { try adapter.receive(milliseconds: $0) }, logger: logger, report: Device.report)
      try runner.run()
    }
  }
}

extension PointerSettings.Model: ExpressibleByArgument {}
