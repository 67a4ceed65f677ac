extension Layout {
  /// Every item's navigation model: the innermost enclosing group's `navigation`, else the
  /// layout's. For renderers, which hold a layout but no ``FocusState``.
  ///
  /// - Complexity: O(n) in the number of items and group entries.
  public func navigationModels() -> [String: NavigationModel] {
    var models: [String: NavigationModel] = [:]
    models.reserveCapacity(items.count)
    for item in items { models[item.id] = navigation }
    func walk(_ group: Group, _ inherited: NavigationModel) {
      let model = group.navigation ?? inherited
      for item in group.items { models[item] = model }
      for child in group.groups { walk(child, model) }
    }
    for group in groups { walk(group, navigation) }
    return models
  }

  /// Every item's focus effect: its own `focusEffect`, else the default of its navigation
  /// model (lift in tvOS, halo in iPadOS).
  public func focusEffects() -> [String: FocusEffectStyle] {
    let models = navigationModels()
    var effects: [String: FocusEffectStyle] = [:]
    effects.reserveCapacity(items.count)
    for item in items {
      effects[item.id] = item.focusEffect ?? .default(for: models[item.id] ?? navigation)
    }
    return effects
  }
}
