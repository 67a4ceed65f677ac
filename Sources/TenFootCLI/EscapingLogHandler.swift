import Logging

/// Wraps the process's log handler so that one event is one line, whatever a peer put in it:
/// control characters in the message and in metadata — keys and values, nested lists and
/// dictionaries, per-logger metadata and the metadata provider's — are escaped by
/// ``escaped(_:)`` before the wrapped handler formats them. Operators read these logs in
/// terminals and journald: a `sender` holding a newline cannot forge a second line, nor an
/// escape sequence colour or retitle the terminal.
public struct EscapingLogHandler: LogHandler {
  private var wrapped: any LogHandler

  /// Wraps `handler` (its metadata provider is taken over, so what it adds is escaped too).
  public init(_ handler: any LogHandler) {
    wrapped = handler
    metadataProvider = handler.metadataProvider
    wrapped.metadataProvider = nil
  }

  /// The provider of contextual metadata; its values are escaped with the event's.
  public var metadataProvider: Logger.MetadataProvider?

  /// The wrapped handler's level.
  public var logLevel: Logger.Level {
    get { wrapped.logLevel }
    set { wrapped.logLevel = newValue }
  }

  /// Per-logger metadata, escaped as it is set.
  public var metadata: Logger.Metadata {
    get { wrapped.metadata }
    set { wrapped.metadata = Self.escaped(newValue) }
  }

  /// One per-logger metadata value, escaped as it is set.
  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { wrapped[metadataKey: Self.escaped(key)] }
    set { wrapped[metadataKey: Self.escaped(key)] = newValue.map(Self.escaped) }
  }

  /// Escapes the event's message and metadata, then hands it to the wrapped handler.
  public func log(event: LogEvent) {
    var event = event
    event.message = Logger.Message(stringLiteral: Self.escaped(event.message.description))
    var metadata = metadataProvider?.get() ?? [:]
    if let own = event.metadata { metadata.merge(own) { _, new in new } }
    event.metadata = metadata.isEmpty ? nil : Self.escaped(metadata)
    if let error = event.error {
      event.error = EscapedError(description: Self.escaped("\(error)"))
    }
    wrapped.log(event: event)
  }

  /// `text` on one line: C0 and C1 controls, DEL, the line and paragraph separators and the
  /// bidirectional controls become Swift-style escapes (`\n`, `\r`, `\t`, `\u{1B}`, `\u{202E}`);
  /// everything else, backslashes included, is kept as is.
  ///
  /// - Complexity: O(n) in the length of `text`.
  public static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      guard needsEscape(scalar) else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return result
  }

  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  static func escaped(_ metadata: Logger.Metadata) -> Logger.Metadata {
    var result: Logger.Metadata = [:]
    for (key, value) in metadata { result[escaped(key)] = escaped(value) }
    return result
  }

  static func escaped(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
    switch value {
    case .string(let text): .string(escaped(text))
    case .stringConvertible(let convertible): .string(escaped(convertible.description))
    case .array(let values): .array(values.map(escaped))
    case .dictionary(let metadata): .dictionary(escaped(metadata))
    }
  }
}

/// An event's error, its description escaped.
private struct EscapedError: Error, CustomStringConvertible {
  let description: String
}
