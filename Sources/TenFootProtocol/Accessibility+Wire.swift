import FocusEngine

extension ItemAccessibility {
  /// The engine's accessibility properties of a wire item.
  public init(wire: Tenfoot_V1_ItemAccessibility) {
    self.init(
      label: wire.hasLabel ? wire.label : nil, hint: wire.hasHint ? wire.hint : nil,
      value: wire.hasValue ? wire.value : nil,
      traits: wire.declaresTraits ? wire.traits.compactMap(AccessibilityTrait.init(wire:)) : nil)
  }
}

extension Tenfoot_V1_ItemAccessibility {
  /// The wire form of an item's accessibility properties.
  public init(_ accessibility: ItemAccessibility) {
    self.init()
    if let label = accessibility.label { self.label = label }
    if let hint = accessibility.hint { self.hint = hint }
    if let value = accessibility.value { self.value = value }
    if let traits = accessibility.traits {
      declaresTraits = true
      self.traits = traits.map(Tenfoot_V1_AccessibilityTrait.init)
    }
  }
}

extension AccessibilityTrait {
  /// The engine trait of a wire trait; nil for unspecified or unknown values.
  public init?(wire: Tenfoot_V1_AccessibilityTrait) {
    switch wire {
    case .button: self = .button
    case .link: self = .link
    case .header: self = .header
    case .textField: self = .textField
    case .searchField: self = .searchField
    case .image: self = .image
    case .tab: self = .tab
    case .toggle: self = .toggle
    case .selected: self = .selected
    case .unavailable: self = .unavailable
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }
}

extension Tenfoot_V1_AccessibilityTrait {
  /// The wire form of a trait.
  public init(_ trait: AccessibilityTrait) {
    switch trait {
    case .button: self = .button
    case .link: self = .link
    case .header: self = .header
    case .textField: self = .textField
    case .searchField: self = .searchField
    case .image: self = .image
    case .tab: self = .tab
    case .toggle: self = .toggle
    case .selected: self = .selected
    case .unavailable: self = .unavailable
    }
  }
}

extension Verbosity {
  /// The engine verbosity of a wire value (unspecified or unknown: normal).
  public init(wire: Tenfoot_V1_Verbosity) {
    switch wire {
    case .low: self = .low
    case .high: self = .high
    case .normal, .unspecified, .UNRECOGNIZED: self = .normal
    }
  }
}

extension Tenfoot_V1_Verbosity {
  /// The wire form of a verbosity.
  public init(_ verbosity: Verbosity) {
    switch verbosity {
    case .low: self = .low
    case .normal: self = .normal
    case .high: self = .high
    }
  }
}

extension Announcement {
  /// The engine announcement of a wire one; parts of unknown kinds are dropped, and nil when
  /// none is left.
  public init?(wire: Tenfoot_V1_Announcement) {
    // One allocation (`compactMap` grows its result as it goes): a screen converts one per press.
    var parts: [AnnouncementPart] = []
    parts.reserveCapacity(wire.parts.count)
    for part in wire.parts {
      if let kind = AnnouncementPart.Kind(wire: part.kind) {
        parts.append(AnnouncementPart(kind, part.text))
      }
    }
    guard !parts.isEmpty else { return nil }
    self.init(parts: parts, interrupt: wire.interrupt)
  }
}

extension Tenfoot_V1_Announcement {
  /// The wire form of an announcement, with its spoken text.
  public init(_ announcement: Announcement) {
    self.init()
    parts = announcement.parts.map { part in
      .with {
        $0.kind = Tenfoot_V1_AnnouncementKind(part.kind)
        $0.text = part.text
      }
    }
    interrupt = announcement.interrupt
    text = announcement.text
  }
}

extension AnnouncementPart.Kind {
  /// The engine kind of a wire kind; nil for unspecified or unknown values.
  public init?(wire: Tenfoot_V1_AnnouncementKind) {
    switch wire {
    case .group: self = .group
    case .label: self = .label
    case .value: self = .value
    case .trait: self = .trait
    case .position: self = .position
    case .hint: self = .hint
    case .action: self = .action
    case .edge: self = .edge
    case .refusal: self = .refusal
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }
}

extension Tenfoot_V1_AnnouncementKind {
  /// The wire form of a part's kind.
  public init(_ kind: AnnouncementPart.Kind) {
    switch kind {
    case .group: self = .group
    case .label: self = .label
    case .value: self = .value
    case .trait: self = .trait
    case .position: self = .position
    case .hint: self = .hint
    case .action: self = .action
    case .edge: self = .edge
    case .refusal: self = .refusal
    }
  }
}
