// The strict JSON layout format (docs/layout-format.md). Decoding checks shape only: unknown
// fields, missing required fields and wrong types throw `DecodingError`; the semantic rules
// (unique ids, sizes, group members) are `validate()`'s job.

extension Layout: Decodable {
  private enum CodingKeys: String, CodingKey, CaseIterable {
    case canvas, items, groups, initialFocus
  }

  /// Decodes the strict JSON layout format; unknown fields are errors.
  public init(from decoder: any Decoder) throws {
    try StrictKeys.check(decoder, allowed: CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      canvas: try container.decodeIfPresent(Size.self, forKey: .canvas) ?? .tv,
      items: try container.decode([Item].self, forKey: .items),
      groups: try container.decodeIfPresent([Group].self, forKey: .groups) ?? [],
      initialFocus: try container.decodeIfPresent(String.self, forKey: .initialFocus))
  }
}

extension Item: Decodable {
  private enum CodingKeys: String, CodingKey, CaseIterable {
    case id, title, frame, available, toggles, selected
  }

  /// Decodes `{"id", "frame": [x, y, width, height], "title"?, "available"?, "toggles"?,
  /// "selected"?}`; unknown fields are errors.
  public init(from decoder: any Decoder) throws {
    try StrictKeys.check(decoder, allowed: CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let id = try container.decode(String.self, forKey: .id)
    let title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
    var frame = try container.nestedUnkeyedContainer(forKey: .frame)
    self.init(
      id: id,
      title: title,
      frame: try Self.decodeFrame(&frame),
      available: try container.decodeIfPresent(Bool.self, forKey: .available) ?? true,
      toggles: try container.decodeIfPresent(Bool.self, forKey: .toggles) ?? true,
      selected: try container.decodeIfPresent(Bool.self, forKey: .selected) ?? false)
  }

  /// Reads `[x, y, width, height]`: exactly four numbers.
  private static func decodeFrame(_ container: inout any UnkeyedDecodingContainer) throws -> Rect {
    let path = container.codingPath
    func wrongCount(_ found: String) -> DecodingError {
      .dataCorrupted(
        .init(
          codingPath: path,
          debugDescription: "expected [x, y, width, height] (4 numbers), found \(found)"))
    }
    if let count = container.count, count != 4 {
      throw wrongCount("\(count) element\(count == 1 ? "" : "s")")
    }
    var values: (Double, Double, Double, Double) = (0, 0, 0, 0)
    for position in 0..<4 {
      guard !container.isAtEnd else { throw wrongCount("\(position) elements") }
      let value = try container.decode(Double.self)
      switch position {
      case 0: values.0 = value
      case 1: values.1 = value
      case 2: values.2 = value
      default: values.3 = value
      }
    }
    guard container.isAtEnd else { throw wrongCount("more than 4 elements") }
    return Rect(x: values.0, y: values.1, width: values.2, height: values.3)
  }
}

extension Group: Decodable {
  private enum CodingKeys: String, CodingKey, CaseIterable {
    case id, items, groups
  }

  /// Decodes `{"id", "items"?, "groups"?}`; unknown fields are errors.
  public init(from decoder: any Decoder) throws {
    try StrictKeys.check(decoder, allowed: CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decode(String.self, forKey: .id),
      items: try container.decodeIfPresent([String].self, forKey: .items) ?? [],
      groups: try container.decodeIfPresent([Group].self, forKey: .groups) ?? [])
  }
}

extension Size: Decodable {
  private enum CodingKeys: String, CodingKey, CaseIterable {
    case width, height
  }

  /// Decodes `{"width", "height"}`; unknown fields are errors.
  public init(from decoder: any Decoder) throws {
    try StrictKeys.check(decoder, allowed: CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      width: try container.decode(Double.self, forKey: .width),
      height: try container.decode(Double.self, forKey: .height))
  }
}

/// Rejects keyed containers with fields outside an allowed set.
enum StrictKeys {
  /// Any key, to list what a keyed container really holds.
  private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
      self.stringValue = String(intValue)
      self.intValue = intValue
    }
  }

  /// Throws `DecodingError.dataCorrupted` at the container's path naming the unknown field(s),
  /// like `unknown field "colour" (allowed: id, title, frame, available, toggles, selected)`.
  /// Several unknown fields are listed in sorted order, so the message is deterministic.
  static func check<Keys: CodingKey & CaseIterable>(
    _ decoder: any Decoder, allowed: Keys.Type
  ) throws {
    let container = try decoder.container(keyedBy: AnyKey.self)
    var unknown: [String] = []
    for key in container.allKeys where Keys(stringValue: key.stringValue) == nil {
      unknown.append(key.stringValue)
    }
    guard !unknown.isEmpty else { return }
    let names = unknown.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
    let allowedNames = Keys.allCases.map(\.stringValue).joined(separator: ", ")
    let noun = unknown.count == 1 ? "field" : "fields"
    throw DecodingError.dataCorrupted(
      .init(
        codingPath: decoder.codingPath,
        debugDescription: "unknown \(noun) \(names) (allowed: \(allowedNames))"))
  }
}
