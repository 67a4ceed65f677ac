import ArgumentParser
import Foundation
import InputDevices
import Logging
import RemoteCore

extension RemoteCommand {
  /// `tenfoot-remote device --replay FILE [--mapping FILE]`
  struct Device: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Use a keyboard, media remote or gamepad (a Linux input device) as the remote.",
      discussion: """
        Kernel key presses, autorepeats and releases become the remote's presses and holds, \
        with the kernel's timestamps. The mapping (docs/input-devices.md) maps arrows, \
        Enter/OK/Select, Esc/Back/Menu, Home, Play/Pause and a gamepad's D-pad, left stick, \
        south, east and start buttons by default. --replay plays an evemu-record file through \
        the device path, in real time. (Reading live /dev/input nodes is not built yet.)
        """)

    @OptionGroup var options: RemoteOptions

    @Option(help: "Play this evemu-record file.", completion: .file())
    var replay: String

    @Option(help: "A mapping file (JSON) over the defaults.", completion: .file())
    var mapping: String?

    func run() throws {
      let mapping =
        try self.mapping.map { path throws(DeviceMappingError) in
          try DeviceMapping.load(path: path)
        } ?? .defaults
      try play(replay, mapping: mapping)
    }

    private func play(_ file: String, mapping: DeviceMapping) throws {
      let text: String
      do {
        text = try String(contentsOfFile: file, encoding: .utf8)
      } catch {
        throw ValidationError("cannot read \(file): \(error.localizedDescription)")
      }
      let recording: EvemuRecording
      do {
        recording = try EvemuRecording.parse(text)
      } catch {
        throw ValidationError("\(file): \(error)")
      }
      let remote = try options.connect()
      let session = DeviceSession(
        client: remote, device: file, mapping: mapping, axes: recording.device.axes,
        logger: Logger(label: "tenfoot.remote.device"),
        report: { result in
          print(result.line)
          fflush(nil)
        })
      try EvemuReplay.play(recording, through: session)
    }
  }
}
