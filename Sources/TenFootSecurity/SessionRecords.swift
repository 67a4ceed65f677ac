import Foundation

/// What the broker remembers per screen session across restarts (crash included): the focused
/// item and the selected (toggled, "favourite") items. Versioned JSON, written atomically
/// (`AtomicFile`) before the broker acknowledges the request that changed it.
///
/// Format: `{"version":1,"screens":{"<id>":{"focused":"<item>","selected":["<item>",…],
/// "text":{"<field>":"<value>"}}}}`. New fields are added as optionals (older files decode
/// with them absent; `text` was added that way); a file with a newer `version` is refused
/// rather than misread.
public struct SessionRecords: Sendable, Equatable, Codable {
  /// One screen's remembered state.
  public struct Screen: Sendable, Equatable, Codable {
    /// The focused item, if any.
    public var focused: String?
    /// The selected items, sorted.
    public var selected: [String]
    /// Text field values by item id (absent in files written before text fields).
    public var text: [String: String]?
    /// Group id → the item focused there last (absent in older files).
    public var remembered: [String: String]?
    /// Group id → the item focused last among the group's own items (absent in older files).
    public var rememberedOwn: [String: String]?

    /// Creates a record.
    public init(
      focused: String?, selected: [String], text: [String: String]? = nil,
      remembered: [String: String]? = nil, rememberedOwn: [String: String]? = nil
    ) {
      self.focused = focused
      self.selected = selected
      self.text = text
      self.remembered = remembered
      self.rememberedOwn = rememberedOwn
    }
  }

  /// The file format version.
  public var version = 1
  /// Records by screen session id.
  public var screens: [String: Screen] = [:]

  /// No records.
  public init() {}

  /// Loads the records at `path` (none if the file does not exist).
  public static func load(_ path: String) throws(StoreError) -> SessionRecords {
    guard let bytes = try AtomicFile.read(path) else { return SessionRecords() }
    let records: SessionRecords
    do {
      records = try JSONDecoder().decode(SessionRecords.self, from: Data(bytes))
    } catch {
      throw StoreError.unreadable(path, "\(error)")
    }
    guard records.version == 1 else { throw StoreError.unsupportedVersion(path, records.version) }
    return records
  }

  /// Writes the records to `path` atomically (mode 0600).
  public func save(_ path: String) throws(StoreError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do {
      try AtomicFile.write([UInt8](try encoder.encode(self)) + [0x0A], to: path, mode: 0o600)
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError.unreadable(path, "\(error)")
    }
  }
}
