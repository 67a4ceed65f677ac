/// A named input for tools and scripts: the words `simulate`, `explain` and the debugger
/// accept ("up", "shift-tab", "select", …).
public enum FocusInput: String, Sendable, Hashable, CaseIterable {
  case up, down, left, right, tab
  case shiftTab = "shift-tab"
  case select

  /// The input with this name; `shift_tab`, `shifttab` and upper case are accepted too.
  public init?(_ name: String) {
    let normal = name.lowercased().replacingUnderscores()
    if let input = FocusInput(rawValue: normal) {
      self = input
    } else if normal == "shifttab" || normal == "backtab" {
      self = .shiftTab
    } else {
      return nil
    }
  }

  /// The engine events of this input, in order (select is a press and a release).
  public var events: [FocusEvent] {
    switch self {
    case .up: [.move(.up)]
    case .down: [.move(.down)]
    case .left: [.move(.left)]
    case .right: [.move(.right)]
    case .tab: [.tab(.next)]
    case .shiftTab: [.tab(.previous)]
    case .select: [.selectDown, .selectUp]
    }
  }
}

extension String {
  fileprivate func replacingUnderscores() -> String {
    String(self.map { $0 == "_" ? "-" : $0 })
  }
}

extension FocusState {
  /// Checks a programmatic focus request without performing it: the item focus would go to,
  /// or why it cannot.
  public func checkFocusRequest(_ target: FocusTarget) -> Result<String, FocusRequestError> {
    resolve(target).map { itemID(at: $0) }
  }

  /// What a sequence of events would do, without changing this state.
  public func dryRun(_ events: [FocusEvent]) -> (state: FocusState, effects: [FocusEffect]) {
    var copy = self
    var effects: [FocusEffect] = []
    for event in events { effects += reduce(&copy, event) }
    return (copy, effects)
  }
}
