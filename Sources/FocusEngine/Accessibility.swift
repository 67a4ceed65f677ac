/// What a screen reader says about an item beyond its title (UIKit's accessibility
/// properties). Every field is optional: nil falls back to what the item already says.
public struct ItemAccessibility: Sendable, Hashable {
  /// The item's name as spoken; nil speaks its title.
  public var label: String?
  /// What activating it does, spoken after a pause ("Opens the details"); nil: none.
  public var hint: String?
  /// Its current value; nil derives one: a text field's text, a toggle's "selected" or
  /// "not selected".
  public var value: String?
  /// What kind of element it is; nil derives them from the item's kind (button, text field,
  /// heading). `selected` and `unavailable` are added from the item's state when they apply.
  public var traits: [AccessibilityTrait]?

  /// Creates accessibility properties.
  public init(
    label: String? = nil, hint: String? = nil, value: String? = nil,
    traits: [AccessibilityTrait]? = nil
  ) {
    self.label = label
    self.hint = hint
    self.value = value
    self.traits = traits
  }

  /// Whether every field is unset (the item says only what it shows).
  public var isEmpty: Bool { label == nil && hint == nil && value == nil && traits == nil }
}

/// One trait of an accessible element (UIKit's `UIAccessibilityTraits`), spoken after the
/// label and value, in declaration order.
public enum AccessibilityTrait: String, Sendable, Hashable, CaseIterable {
  /// Activating it does something.
  case button
  /// Opens a link.
  case link
  /// A heading that names a section (a row's title).
  case header
  /// Text can be typed into it.
  case textField
  /// A search field.
  case searchField
  /// A picture.
  case image
  /// One tab of a tab bar.
  case tab
  /// A toggle switch.
  case toggle
  /// It is selected (a chosen tab, a filled heart). Added from the item's state.
  case selected
  /// It cannot be used now. Added from the item's state.
  case unavailable

  /// The words a screen reader says for the trait.
  public var spoken: String {
    switch self {
    case .button: "button"
    case .link: "link"
    case .header: "heading"
    case .textField: "text field"
    case .searchField: "search field"
    case .image: "image"
    case .tab: "tab"
    case .toggle: "switch"
    case .selected: "selected"
    case .unavailable: "unavailable"
    }
  }
}

/// How much a screen's announcements say (per screen, in its layout).
public enum Verbosity: String, Sendable, Hashable, CaseIterable {
  /// The group entered, the item's label and value, and its selected state.
  case low
  /// Also every trait and the position in the group ("4 of 12"). The default.
  case normal
  /// Also the item's hint, after a pause.
  case high
}
