import FocusEngine

extension NavigationModel {
  /// The navigation model a wire value names; nil for unspecified (inherit) or unknown values
  /// (``InputLimits`` refuses unknown ones at the broker's door).
  public init?(wire: Tenfoot_V1_NavigationModel) {
    switch wire {
    case .tvos: self = .tvos
    case .ipados: self = .ipados
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }
}

extension Tenfoot_V1_NavigationModel {
  /// The wire form of a navigation model (nil: unspecified).
  public init(_ model: NavigationModel?) {
    switch model {
    case .tvos: self = .tvos
    case .ipados: self = .ipados
    case nil: self = .unspecified
    }
  }
}

extension FocusEffectStyle {
  /// The focus effect a wire value names; nil for unspecified (the navigation model's default)
  /// or unknown values.
  public init?(wire: Tenfoot_V1_FocusEffectStyle) {
    switch wire {
    case .halo: self = .halo
    case .highlight: self = .highlight
    case .lift: self = .lift
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }
}

extension Tenfoot_V1_FocusEffectStyle {
  /// The wire form of a focus effect (nil: unspecified).
  public init(_ style: FocusEffectStyle?) {
    switch style {
    case .halo: self = .halo
    case .highlight: self = .highlight
    case .lift: self = .lift
    case nil: self = .unspecified
    }
  }
}
