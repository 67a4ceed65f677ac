import Foundation
import Logging
import TenFootCLI
import Testing

/// The log exit (issue 17): whatever a peer put in a message or in metadata, one event is one
/// line with no control character.
@Suite("Escaping log handler: one event, one line")
struct EscapingLogHandlerTests {
  /// Keeps what it is asked to log, as the stream handler would receive it.
  final class Recorder: @unchecked Sendable {
    // Only touched from the test's own thread (logging is synchronous).
    var events: [LogEvent] = []
  }

  struct RecordingHandler: LogHandler {
    let recorder: Recorder
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
      var event = event
      event.metadata = (event.metadata ?? [:]).merging(metadata) { new, _ in new }
      recorder.events.append(event)
    }
  }

  static let forged =
    "remote:x\n2026-11-23T00:00:00+0000 critical tenfoot.broker: FORGED LINE\u{1B}[31m"

  @Test("controls in the message and in every kind of metadata value are escaped")
  func escapes() throws {
    let recorder = Recorder()
    let provider = Logger.MetadataProvider { ["provided": "p\r\u{9B}"] }
    var logger = Logger(label: "test") { _ in
      var handler = RecordingHandler(recorder: recorder)
      handler.metadataProvider = provider
      return EscapingLogHandler(handler)
    }
    logger[metadataKey: "own\u{7}"] = "o\u{0}"
    logger.warning(
      "refused \(Self.forged)",
      metadata: [
        "peer": "\(Self.forged)", "list": ["a\tb", "c\u{85}d"],
        "nested": ["k\u{202E}": "v\u{2028}w"],
      ])
    let event = try #require(recorder.events.first)
    let message = event.message.description
    #expect(
      message
        == #"refused remote:x\n2026-11-23T00:00:00+0000 critical tenfoot.broker: FORGED LINE\u{1B}[31m"#
    )
    let metadata = try #require(event.metadata)
    #expect(
      metadata["peer"]?.description
        == #"remote:x\n2026-11-23T00:00:00+0000 critical tenfoot.broker: FORGED LINE\u{1B}[31m"#)
    guard case .array(let list)? = metadata["list"],
      case .dictionary(let nested)? = metadata["nested"]
    else {
      Issue.record("the list and dictionary kept their shape: \(metadata)")
      return
    }
    #expect(list.map(\.description) == [#"a\tb"#, #"c\u{85}d"#])
    #expect(nested[#"k\u{202E}"#]?.description == #"v\u{2028}w"#)
    #expect(metadata["provided"]?.description == #"p\r\u{9B}"#)
    #expect(metadata[#"own\u{7}"#]?.description == #"o\u{0}"#)
    for text in [message] + metadata.map({ "\($0.key)=\($0.value)" }) {
      #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
  }

  @Test("text without controls is passed through unchanged, backslashes included")
  func unchanged() {
    #expect(EscapingLogHandler.escaped(#"C:\path 東京 🎬 é"#) == #"C:\path 東京 🎬 é"#)
  }
}
