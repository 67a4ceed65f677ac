import FocusEngine

// The one mapping between the wire's debug query and the engine's `DebugQuery`.

extension DebugQuery {
  /// The question a wire query asks.
  public init(wire: Tenfoot_V1_DebugRequest.OneOf_Query) {
    switch wire {
    case .explainItem(let id): self = .explainItem(id)
    case .tabLoop: self = .tabLoop
    case .groupTree: self = .groupTree
    case .dryRun(let name): self = .dryRun(name)
    }
  }
}

extension Tenfoot_V1_DebugRequest.OneOf_Query {
  /// The wire query of a question.
  public init(_ query: DebugQuery) {
    switch query {
    case .explainItem(let id): self = .explainItem(id)
    case .tabLoop: self = .tabLoop(true)
    case .groupTree: self = .groupTree(true)
    case .dryRun(let name): self = .dryRun(name)
    }
  }
}
