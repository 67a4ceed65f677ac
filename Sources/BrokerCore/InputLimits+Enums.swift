import TenFootProtocol

extension InputLimits {
  /// The first navigation model or focus effect a newer (or broken) peer sent that this
  /// broker does not know, as `INVALID_LAYOUT` naming the field:
  /// `items[3].focusEffect: unknown value 9 (allowed: halo, highlight, lift)`.
  static func enumProblem(_ layout: Tenfoot_V1_Layout) -> Tenfoot_V1_Error? {
    if case .UNRECOGNIZED(let value) = layout.navigation {
      return unknown("navigation", value, allowed: navigationNames)
    }
    for (index, item) in layout.items.enumerated() {
      if let problem = enumProblem(item, path: "items[\(index)]") { return problem }
    }
    for (index, group) in layout.groups.enumerated() {
      if let problem = enumProblem(group, path: "groups[\(index)]") { return problem }
    }
    return nil
  }

  /// The same check over a patch's added items and groups (`operations[2].item.focusEffect`).
  static func enumProblem(_ operations: [Tenfoot_V1_PatchOperation]) -> Tenfoot_V1_Error? {
    for (index, operation) in operations.enumerated() {
      switch operation.op {
      case .addItem(let add):
        if let problem = enumProblem(add.item, path: "operations[\(index)].item") {
          return problem
        }
      case .addGroup(let add):
        if let problem = enumProblem(add.group, path: "operations[\(index)].group") {
          return problem
        }
      default: continue
      }
    }
    return nil
  }

  private static let navigationNames = "tvos, ipados"

  private static func enumProblem(_ item: Tenfoot_V1_Item, path: String) -> Tenfoot_V1_Error? {
    if case .UNRECOGNIZED(let value) = item.pointerEffect {
      return unknown(path + ".pointerEffect", value, allowed: "highlight, lift, hover, none")
    }
    guard case .UNRECOGNIZED(let value) = item.focusEffect else { return nil }
    return unknown(path + ".focusEffect", value, allowed: "halo, highlight, lift")
  }

  private static func enumProblem(_ group: Tenfoot_V1_Group, path: String) -> Tenfoot_V1_Error? {
    if case .UNRECOGNIZED(let value) = group.navigation {
      return unknown(path + ".navigation", value, allowed: navigationNames)
    }
    // Nesting depth is bounded before this runs (tooDeep), so the recursion is too.
    for (index, child) in group.groups.enumerated() {
      if let problem = enumProblem(child, path: path + ".groups[\(index)]") { return problem }
    }
    return nil
  }

  private static func unknown(_ path: String, _ value: Int, allowed: String) -> Tenfoot_V1_Error {
    error(.invalidLayout, "\(path): unknown value \(value) (allowed: \(allowed))")
  }
}
