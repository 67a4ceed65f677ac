import FocusEngine
import Foundation
import LinuxFiles
import ScreenCore
import ScreenSpeech
import TestSupport
import Testing

/// The speaker through a real speech-dispatcher: a private daemon whose output module
/// (`sd_generic`) has espeak-ng write each message into a WAV file and log its text, so what
/// `spd-say` handed over can be heard and read back; a newer focus cancels the older text in
/// the daemon, not only its `spd-say`.
@Suite(
  "Speech through speech-dispatcher", .serialized,
  .enabled(if: (Speech.dispatcher != nil && Speech.espeak != nil) || Speech.required))
struct SpeechDispatcherTests {

  /// A message the daemon's output module was given: its text and the WAV it is written to.
  struct Message: Equatable {
    let wav: String
    let text: String
    /// espeak-ng finished writing the WAV.
    var ended = false
  }

  static let quietHours = "Trending, Quiet Hours, button, 3 of 11"

  /// A private daemon, started.
  static func daemon() throws -> Daemon {
    let dispatcher = try #require(Speech.dispatcher, "speech-dispatcher is not installed")
    let espeak = try #require(Speech.espeak, "espeak-ng is not installed")
    let daemon = try Daemon()
    try daemon.start(dispatcher: dispatcher, espeak: espeak)
    return daemon
  }

  /// A speaker through `daemon` (spd-say with the daemon's environment), and its events.
  static func speaker(through daemon: Daemon) -> (Speaker, SpeakerTests.Events) {
    let events = SpeakerTests.Events()
    let speaker = Speaker(
      voice: .speechDispatcher(Speech.spdSay), environment: daemon.environment,
      onEvent: events.append)
    return (speaker, events)
  }

  /// Stops `speaker` and waits until its last utterance has finished (its `spd-say --cancel`
  /// included), so no client is left talking to a daemon being torn down.
  static func stop(_ speaker: Speaker, _ events: SpeakerTests.Events) {
    speaker.stop()
    _ = try? events.wait("the last utterance to finish") { seen in
      seen.allSatisfy { event in
        guard case .started(let number, _, _) = event else { return true }
        return seen.contains { if case .finished(number, _, _) = $0 { true } else { false } }
      }
    }
  }

  @Test("detect picks speech-dispatcher once its socket is in XDG_RUNTIME_DIR, espeak-ng before")
  func detects() throws {
    let dispatcher = try #require(Speech.dispatcher, "speech-dispatcher is not installed")
    let espeak = try #require(Speech.espeak, "espeak-ng is not installed")
    let daemon = try Daemon()
    #expect(Speaker.Voice.detect(environment: daemon.environment) == .espeak(espeak))
    try daemon.start(dispatcher: dispatcher, espeak: espeak)
    #expect(
      Speaker.Voice.detect(environment: daemon.environment)
        == .speechDispatcher(Speech.spdSay))
  }

  @Test(
    "an announcement reaches the daemon whole and is spoken into a WAV file that is not silence")
  func speaks() throws {
    let daemon = try Self.daemon()
    // The daemon (and its WAV files) outlive the speaker, stopped first.
    defer { withExtendedLifetime(daemon) {} }
    let (speaker, events) = Self.speaker(through: daemon)
    defer { Self.stop(speaker, events) }
    let number = speaker.say(SpeakerTests.announcement(Self.quietHours))
    let seen = try events.wait("the utterance to finish") {
      $0.contains { if case .finished(number, _, _) = $0 { true } else { false } }
    }
    // spd-say --wait returns once the daemon reports the end of the message.
    #expect(seen.contains(.finished(number: number, status: 0, signal: nil)), "\(seen)")
    let messages = try daemon.waitForMessages("the message to be written") {
      $0.contains(where: \.ended)
    }
    let message = try #require(messages.first)
    #expect(messages == [Message(wav: message.wav, text: Self.quietHours, ended: true)])
    let sound = try SpeakerTests.measure(message.wav)
    #expect(sound.peak > 1000, "the WAV is silent: peak \(sound.peak)")
    #expect(sound.seconds > 0.5, "the WAV is too short for the sentence: \(sound.seconds) s")
  }

  @Test(
    "a newer focus ends the older spd-say and cancels its text in the daemon; the newer is spoken, then what waited"
  )
  func interrupts() throws {
    let daemon = try Self.daemon()
    // The daemon (and its WAV files) outlive the speaker, stopped first.
    defer { withExtendedLifetime(daemon) {} }
    let (speaker, events) = Self.speaker(through: daemon)
    defer { Self.stop(speaker, events) }
    // sd_generic speaks it in chunks of a few hundred characters, one synthesis each: about
    // 70 of them, over a second even with espeak-ng writing files faster than real time.
    let long = Array(repeating: "Old Roads, Silver Screen, Golden Hour, Last Reel", count: 400)
      .joined(separator: ", ")
    let first = speaker.say(SpeakerTests.announcement(long))
    // Interrupt only once the daemon is speaking the text, so there is something to cancel.
    _ = try daemon.waitForMessages("the daemon to start speaking the long text") { !$0.isEmpty }
    let second = speaker.say(SpeakerTests.announcement(Self.quietHours))
    let third = speaker.say(SpeakerTests.announcement("activated", interrupt: false))
    let seen = try events.wait("the third utterance to finish") {
      $0.contains { if case .finished(third, _, _) = $0 { true } else { false } }
    }
    Speech.expectInterrupted(seen, first: first, second: second, third: third)

    let messages = try daemon.waitForMessages("the third text to be written") {
      $0.last?.text == "activated" && $0.last?.ended == true
    }
    // The daemon was given chunks of the long text, then the newer texts in turn, each written
    // whole: nothing of the long text came after them. Without the `spd-say --cancel` (only
    // the older spd-say ended) the daemon went on with the long text until the newer one came,
    // then dropped or cut off the newer one, while its `spd-say --wait` still exited 0.
    let older = messages.dropLast(2)
    #expect(messages.suffix(2).map(\.text) == [Self.quietHours, "activated"], "\(messages)")
    #expect(messages.suffix(2).allSatisfy { $0.ended }, "\(messages)")
    #expect(
      !older.isEmpty
        && older.allSatisfy { long.contains($0.text.trimmingCharacters(in: .whitespaces)) },
      "\(messages.map(\.text))")
    // Had the older utterance not been interrupted, the daemon would have spoken all its 67
    // chunks; the cancel stopped it after one or two.
    let spoken = older.map(\.text.count).reduce(0, +)
    #expect(
      spoken < long.count / 2,
      "the daemon went on with the interrupted text: \(older.count) chunks, \(spoken) of \(long.count) characters"
    )
    let newer = try #require(messages.dropLast().last)
    #expect(try SpeakerTests.measure(newer.wav).peak > 1000)
  }

  /// A speech-dispatcher of the test's own: configuration, socket, logs and WAV files in a
  /// temporary directory. Stopped (SIGTERM, so it ends its output module; then SIGKILL) and
  /// its directory removed when released.
  final class Daemon {
    let directory: TemporaryDirectory
    /// The socket, where `spd-say` looks for it under `XDG_RUNTIME_DIR`.
    let socket: String
    /// One line per message: `start WAV TEXT` before espeak-ng runs, `end WAV` after.
    let messageLog: String
    /// The test's environment with the daemon's runtime directory, where clients find the
    /// socket, and its configuration directory, which disables autospawn (a client that cannot
    /// connect must fail, not start a daemon of its own with the system's configuration).
    let environment: [String: String]

    /// Writes the configuration; call ``start(dispatcher:espeak:)`` to run it.
    init() throws {
      directory = try TemporaryDirectory()
      let root = directory.path
      socket = "\(root)/run/speech-dispatcher/speechd.sock"
      messageLog = "\(root)/messages.log"
      var environment = ProcessInfo.processInfo.environment
      environment["SPEECHD_ADDRESS"] = nil
      environment["XDG_RUNTIME_DIR"] = "\(root)/run"
      environment["XDG_CONFIG_HOME"] = "\(root)/config"
      self.environment = environment
      for folder in ["run/speech-dispatcher", "config/speech-dispatcher/modules", "log", "wav"] {
        try FileManager.default.createDirectory(
          atPath: "\(root)/\(folder)", withIntermediateDirectories: true)
      }
      watchers = [
        try DirectoryWatcher(directory: root, reportingWrites: true),
        try DirectoryWatcher(directory: "\(root)/run/speech-dispatcher"),
      ]
    }

    private var daemon: ChildProcess?
    /// Wake the waits when the module logs a message (a write in the root) or the socket
    /// appears (in its folder), instead of a timer.
    private var watchers: [DirectoryWatcher] = []

    /// Starts the daemon and waits until its socket accepts a connection.
    func start(dispatcher: String, espeak: String) throws {
      let root = directory.path
      let config = "\(root)/config/speech-dispatcher"
      // No sound card here: the audio output opened by the module is ALSA's null device, and
      // the synthesis command writes the sound to a file instead of playing it.
      _ = try directory.write(
        "config/speech-dispatcher/speechd.conf",
        """
        LogLevel 3
        LogDir "\(root)/log"
        DisableAutoSpawn
        AudioOutputMethod "alsa"
        AudioALSADevice "null"
        AddModule "wav" "sd_generic" "wav.conf"
        DefaultModule wav

        """)
      // sd_generic runs this with `sh -c`, $DATA replaced by the message's text (long texts
      // come in chunks, each a run). \' and \\n are the configuration file's escapes.
      let synthesis =
        #"f=$(mktemp -p \#(root)/wav --suffix=.wav message-XXXXXX); "#
        + #"printf \'start %s %s\\n\' $f \'$DATA\' >> \#(messageLog); "#
        + #"printf %s \'$DATA\' | \#(espeak) --stdin -w $f "#
        + #"&& printf \'end %s\\n\' $f >> \#(messageLog)"#
      _ = try directory.write(
        "config/speech-dispatcher/modules/wav.conf",
        """
        Debug 0
        GenericExecuteSynth "\(synthesis)"
        GenericLanguage "en" "en" "utf-8"
        AddVoice "en" "MALE1" "en"
        DefaultVoice "en"

        """)
      let daemon = try ChildProcess(
        dispatcher,
        [
          "--run-single", "--timeout", "0", "--config-dir", config,
          "--communication-method", "unix_socket", "--socket-path", socket,
          "--pid-file", "\(root)/run/speech-dispatcher.pid", "--log-dir", "\(root)/log",
        ], environment: environment)
      self.daemon = daemon
      try poll("the daemon's socket to accept a connection", timeout: 20) { Self.connects(socket) }
    }

    deinit {
      guard let daemon else { return }
      daemon.signal(SIGTERM)
      _ = try? daemon.waitForExit(timeout: 10)
      daemon.kill()
    }

    /// Whether a client can connect to the unix socket at `path`.
    static func connects(_ path: String) -> Bool {
      let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
      guard descriptor >= 0 else { return false }
      defer { close(descriptor) }
      var address = sockaddr_un()
      address.sun_family = sa_family_t(AF_UNIX)
      let bytes = Array(path.utf8)
      guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
      withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        buffer.copyBytes(from: bytes)
      }
      return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
        }
      }
    }

    /// The messages the output module was given so far, in order.
    func messages() -> [Message] {
      let text = (try? String(contentsOfFile: messageLog, encoding: .utf8)) ?? ""
      var list: [Message] = []
      for line in text.split(separator: "\n") {
        let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        if fields.count == 3, fields[0] == "start" {
          list.append(Message(wav: String(fields[1]), text: String(fields[2])))
        } else if fields.count == 2, fields[0] == "end",
          let index = list.lastIndex(where: { $0.wav == fields[1] })
        {
          list[index].ended = true
        }
      }
      return list
    }

    /// The messages once `done` holds for them: the module's log is read again each time a
    /// file in the root is written (inotify), until the deadline.
    func waitForMessages(
      _ what: String, timeout: Double = 30, until done: ([Message]) -> Bool
    ) throws -> [Message] {
      var list: [Message] = []
      try poll(what, timeout: timeout) {
        list = messages()
        return done(list)
      }
      return list
    }

    /// Checks `condition` whenever a watched folder changes (and at least every 100 ms, for the
    /// daemon's exit and for a socket that exists before it listens) until it holds; throws,
    /// with what the daemon said, at the deadline or when the daemon has ended.
    private func poll(_ what: String, timeout: Double, _ condition: () -> Bool) throws {
      let deadline = Date(timeIntervalSinceNow: timeout)
      while !condition() {
        let running = daemon?.isRunning ?? false
        guard running, Date() < deadline else {
          let log = try? String(
            contentsOfFile: "\(directory.path)/log/speech-dispatcher.log", encoding: .utf8)
          throw ChildProcessError(
            description: """
              \(running ? "no \(what) within \(timeout) s" : "the daemon ended before \(what)")
              messages: \(messages())
              daemon stderr: \((daemon?.errors ?? []).suffix(20).joined(separator: "\n"))
              daemon log (last 20 lines):
              \((log ?? "").split(separator: "\n").suffix(20).joined(separator: "\n"))
              """)
        }
        var ready = watchers.map {
          pollfd(fd: $0.fileDescriptor, events: Int16(POLLIN), revents: 0)
        }
        _ = Glibc.poll(&ready, nfds_t(ready.count), 100)
        for watcher in watchers { _ = watcher.drain() }
      }
    }
  }
}

extension Speech {
  /// speech-dispatcher's path, or nil when it is not installed (`scripts/bootstrap` installs
  /// it; `Speech.required` makes a missing one fail).
  static let dispatcher: String? =
    FileManager.default.isExecutableFile(atPath: "/usr/bin/speech-dispatcher")
      && FileManager.default.isExecutableFile(atPath: spdSay) ? "/usr/bin/speech-dispatcher" : nil
  /// Its client, the one `Speaker.Voice.detect` picks.
  static let spdSay = "/usr/bin/spd-say"
}
