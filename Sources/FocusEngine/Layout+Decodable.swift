// The strict JSON layout format (docs/layout-format.md). Decoding checks shape only: unknown
// fields, missing required fields and wrong types throw `DecodingError`; the semantic rules
// (unique ids, sizes, group members) are `validate()`'s job.

extension Layout: Decodable {
  private enum CodingKeys: String, CodingKey, CaseIterable {
    case canvas, items, groups, initialFocus, search, layoutDirection, guides, navigation
    case verbosity, pointerHitMargin, pointerIdleTimeout
  }

  /// Decodes the strict JSON layout format; unknown fields are errors.
  public init(from decoder: any Decoder) throws {
    try StrictKeys.check(decoder, allowed: CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      canvas: try container.decodeIfPresent(Size.self, forKey: .canvas) ?? .tv,
      items: try container.decode([Item].self, forKey: .items),
      groups: try container.decodeIfPresent([Group].self, forKey: .groups) ?? [],
      initialFocus: try container.decodeIfPresent(String.self, forKey: .initialFocus),
      search: try container.decodeIfPresent(SearchModel.self, forKey: .search) ?? .tvos,
      layoutDirection: try container.decodeIfPresent(
        LayoutDirection.self, forKey: .layoutDirection) ?? .ltr,
      guides: try container.decodeIfPresent([FocusGuide].self, forKey: .guides) ?? [],
      navigation: try container.decodeIfPresent(NavigationModel.self, forKey: .navigation)
        ?? .tvos,
      verbosity: try container.decodeIfPresent(Verbosity.self, forKey: .verbosity) ?? .normal,
      pointerHitMargin: try container.decodeIfPresent(Double.self, forKey: .pointerHitMargin)
        ?? Layout.defaultPointerHitMargin,
      pointerIdleTimeout: try container.decodeIfPresent(Double.self, forKey: .pointerIdleTimeout)
        ?? Layout.defaultPointerIdleTimeout)
  }
}

extension Item: Decodable {
  private enum CodingKeys: String, CodingKey, CaseIterable {
    case id, title, frame, available, toggles, selected, priority, kind, layers, value
    case focusEffect, cornerRadius, pointerEffect, pointerMagnetism, pointerShape
    case accessibilityLabel, accessibilityHint, accessibilityValue, accessibilityTraits
    case subtitle, body, badge, image, accent
  }

  /// Decodes `{"id", "frame": [x, y, width, height], "title"?, "available"?, "toggles"?,
  /// "selected"?}`; unknown fields are errors.
  public init(from decoder: any Decoder) throws {
    try StrictKeys.check(decoder, allowed: CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let id = try container.decode(String.self, forKey: .id)
    let title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
    self.init(
      id: id,
      title: title,
      frame: try container.decode(Rect.self, forKey: .frame),
      available: try container.decodeIfPresent(Bool.self, forKey: .available) ?? true,
      toggles: try container.decodeIfPresent(Bool.self, forKey: .toggles) ?? true,
      selected: try container.decodeIfPresent(Bool.self, forKey: .selected) ?? false,
      priority: try container.decodeIfPresent(FocusPriority.self, forKey: .priority),
      kind: try container.decodeIfPresent(ItemKind.self, forKey: .kind) ?? .button,
      layers: try container.decodeIfPresent([ParallaxLayer].self, forKey: .layers) ?? [],
      value: try container.decodeIfPresent(String.self, forKey: .value) ?? "",
      focusEffect: try container.decodeIfPresent(FocusEffectStyle.self, forKey: .focusEffect),
      cornerRadius: try container.decodeIfPresent(Double.self, forKey: .cornerRadius),
      pointerEffect: try container.decodeIfPresent(PointerEffectStyle.self, forKey: .pointerEffect)
        ?? .automatic,
      pointerMagnetism: try container.decodeIfPresent(Bool.self, forKey: .pointerMagnetism)
        ?? true,
      pointerShape: try container.decodeIfPresent(String.self, forKey: .pointerShape),
      accessibility: ItemAccessibility(
        label: try container.decodeIfPresent(String.self, forKey: .accessibilityLabel),
        hint: try container.decodeIfPresent(String.self, forKey: .accessibilityHint),
        value: try container.decodeIfPresent(String.self, forKey: .accessibilityValue),
        traits: try container.decodeIfPresent(
          [AccessibilityTrait].self, forKey: .accessibilityTraits)),
      content: ItemContent(
        subtitle: try container.decodeIfPresent(String.self, forKey: .subtitle),
        body: try container.decodeIfPresent(String.self, forKey: .body),
        badge: try container.decodeIfPresent(String.self, forKey: .badge),
        image: try container.decodeIfPresent(String.self, forKey: .image),
        accent: try container.decodeIfPresent(String.self, forKey: .accent)))
  }
}

extension ParallaxLayer: Decodable {
  private enum CodingKeys: String, CodingKey, CaseIterable {
    case name, depth
  }

  /// Decodes `{"name", "depth"}`; unknown fields are errors.
  public init(from decoder: any Decoder) throws {
    try StrictKeys.check(decoder, allowed: CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      name: try container.decode(String.self, forKey: .name),
      depth: try container.decode(Double.self, forKey: .depth))
  }
}

extension Rect: Decodable {
  /// Decodes `[x, y, width, height]`: exactly four numbers.
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    self = try Self.decodeFrame(&container)
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
    case id, items, groups, trapsFocus, remembersLastFocused, preferredFocus
    case selectionFollowsFocus, search, navigation, scroll, viewport, scrollMargin, enabled
    case accessibilityLabel, revealOnPointer, virtual
  }

  /// Decodes `{"id", "items"?, "groups"?, …options}`; unknown fields are errors.
  public init(from decoder: any Decoder) throws {
    try StrictKeys.check(decoder, allowed: CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func flag(_ key: CodingKeys, _ fallback: Bool) throws -> Bool {
      try container.decodeIfPresent(Bool.self, forKey: key) ?? fallback
    }
    self.init(
      id: try container.decode(String.self, forKey: .id),
      items: try container.decodeIfPresent([String].self, forKey: .items) ?? [],
      groups: try container.decodeIfPresent([Group].self, forKey: .groups) ?? [],
      trapsFocus: try flag(.trapsFocus, false),
      remembersLastFocused: try flag(.remembersLastFocused, false),
      preferredFocus: try container.decodeIfPresent(String.self, forKey: .preferredFocus),
      selectionFollowsFocus: try flag(.selectionFollowsFocus, false),
      search: try container.decodeIfPresent(SearchModel.self, forKey: .search),
      navigation: try container.decodeIfPresent(NavigationModel.self, forKey: .navigation),
      scroll: try container.decodeIfPresent(ScrollAxis.self, forKey: .scroll),
      viewport: try container.decodeIfPresent(Rect.self, forKey: .viewport),
      scrollMargin: try container.decodeIfPresent(Double.self, forKey: .scrollMargin)
        ?? Group.defaultScrollMargin,
      enabled: try flag(.enabled, true),
      accessibilityLabel: try container.decodeIfPresent(String.self, forKey: .accessibilityLabel),
      revealOnPointer: try flag(.revealOnPointer, false),
      virtual: try container.decodeIfPresent(VirtualItems.self, forKey: .virtual))
  }
}

extension FocusGuide: Decodable {
  private enum CodingKeys: String, CodingKey, CaseIterable {
    case id, frame, destinations, enabled, group
  }

  /// Decodes `{"id", "frame", "destinations", "enabled"?, "group"?}`; unknown fields are errors.
  public init(from decoder: any Decoder) throws {
    try StrictKeys.check(decoder, allowed: CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decode(String.self, forKey: .id),
      frame: try container.decode(Rect.self, forKey: .frame),
      destinations: try container.decode([String].self, forKey: .destinations),
      enabled: try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? true,
      group: try container.decodeIfPresent(String.self, forKey: .group))
  }
}

extension FocusPriority: Decodable {
  /// Decodes a number, or one of the names `ignored`, `previouslyFocused`, `prioritized`,
  /// `currentlyFocused`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let value = try? container.decode(Int.self) {
      self.init(rawValue: value)
      return
    }
    let name = try container.decode(String.self)
    guard let match = Self.names.first(where: { $0.0 == name }) else {
      let known = Self.names.map(\.0).joined(separator: ", ")
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "unknown priority \"\(name)\" (a number or: \(known))")
    }
    self = match.1
  }
}

/// Decodes a string enum by raw value, naming the allowed values when it fails.
private protocol NamedEnum: Decodable, RawRepresentable<String>, CaseIterable {}

extension NamedEnum {
  /// Decodes one of the raw values; anything else is an error listing them.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let name = try container.decode(String.self)
    guard let value = Self(rawValue: name) else {
      let known = Self.allCases.map(\.rawValue).joined(separator: ", ")
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "unknown value \"\(name)\" (allowed: \(known))")
    }
    self = value
  }
}

extension SearchModel: NamedEnum {}
extension LayoutDirection: NamedEnum {}
extension ScrollAxis: NamedEnum {}
extension ItemKind: NamedEnum {}
extension NavigationModel: NamedEnum {}
extension FocusEffectStyle: NamedEnum {}
extension AccessibilityTrait: NamedEnum {}
extension Verbosity: NamedEnum {}
extension PointerEffectStyle: NamedEnum {}

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
