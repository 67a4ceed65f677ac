/// Who may do what (docs/security.md, "Roles"), decided before a request is handled.
///
/// | request | screen key | remote | app |
/// | --- | --- | --- | --- |
/// | hello | yes (lists its screens) | yes (lists those it may use) | yes (its screens) |
/// | register | ids it owns, or no key owns (it then owns them) | no | no |
/// | heartbeat, patch | ids it owns | no | patch: its screens |
/// | snapshot | any screen (mirrors show others' sessions) | its screens | its screens |
/// | input, focus, debug | ids it owns (the web page forwards its keys) | its screens | focus, debug: its screens |
///
/// A local peer (no CURVE identity) may do everything, as today.
public enum AccessDecision: Sendable, Equatable {
  /// Go ahead.
  case allowed
  /// Go ahead: a screen key registers an id no key owns, and owns it once acknowledged.
  case claim(screen: String)
  /// Refused; nothing changes.
  case forbidden(AccessRefusal)
}

/// Why a principal was refused a request.
public struct AccessRefusal: Sendable, Equatable {
  /// Why, in the domain's terms.
  public enum Reason: Sendable, Equatable {
    /// The role never makes this kind of request.
    case role
    /// The screen is owned by another screen key.
    case ownedByAnother
    /// The principal is not bound to (not allowed) this screen.
    case notBound
    /// The screen key owns as many screens as a key may.
    case tooManyScreens(limit: Int)
  }

  /// The principal's short id.
  public var peer: String
  /// Its role.
  public var role: Principal.Role
  /// The request's kind ("register_screen", …).
  public var request: String
  /// The screen it named, if any.
  public var screen: String?
  /// Why.
  public var reason: Reason

  /// A refusal.
  public init(
    peer: String, role: Principal.Role, request: String, screen: String?, reason: Reason
  ) {
    self.peer = peer
    self.role = role
    self.request = request
    self.screen = screen
    self.reason = reason
  }
}

extension BrokerRequest {
  /// The request's kind as the wire names it, for refusals and logs.
  public var kindName: String {
    switch self {
    case .hello: "hello"
    case .register: "register_screen"
    case .input: "input"
    case .patch: "patch_layout"
    case .focus: "focus_request"
    case .debug: "debug_request"
    case .snapshot: "snapshot_request"
    case .heartbeat: "heartbeat"
    case .react: "app_reaction"
    case .expire: "expire"
    }
  }
}

extension BrokerDomain {
  /// Handles `request` from `principal`: refused with `forbidden` unless its role allows it
  /// for the screen it names (`owners`: screen id → the hex key of the screen key that owns
  /// it, from the allow-list). A hello lists only the screens the principal may use; a screen
  /// key's first registration of an unowned id ends with a `bind` effect.
  public mutating func handle(
    _ request: BrokerRequest, from principal: Principal, owners: [String: String],
    at now: BrokerInstant
  ) -> Outcome {
    let decision = access(request, from: principal, owners: owners)
    if case .forbidden(let refusal) = decision { return .error(.forbidden(refusal)) }
    var outcome = handle(request, at: now)
    authorized(&outcome, decision: decision, principal: principal, owners: owners)
    return outcome
  }

  /// What access adds to an allowed request's outcome: a hello lists only the screens the
  /// principal may use; an acknowledged claim binds the screen to the principal's key.
  func authorized(
    _ outcome: inout Outcome, decision: AccessDecision, principal: Principal,
    owners: [String: String]
  ) {
    // Matched one by one, not as a tuple: the tuple would copy the reply and the decision on
    // every request to match them (about 490 instructions per key input).
    if case .claim(let screen) = decision, case .ack = outcome.reply {
      outcome.effects.append(.bind(screen: screen, key: principal.key))
    } else if principal.role != .local, case .welcome(var welcome) = outcome.reply {
      welcome.screens = welcome.screens.filter {
        Self.mayUse($0, principal: principal, owners: owners)
      }
      outcome.reply = .welcome(welcome)
    }
  }

  /// Whether `principal` may make `request` (pure: the sessions only resolve input that names
  /// no screen).
  public func access(
    _ request: BrokerRequest, from principal: Principal, owners: [String: String]
  ) -> AccessDecision {
    guard principal.role != .local else { return .allowed }
    let screen = screen(of: request)
    func refuse(_ reason: AccessRefusal.Reason) -> AccessDecision {
      .forbidden(
        AccessRefusal(
          peer: principal.id, role: principal.role, request: request.kindName, screen: screen,
          reason: reason))
    }
    let owner = screen.flatMap { owners[$0] }
    let owns = owner != nil && owner == principal.key
    let bound = screen.map { Self.mayUse($0, principal: principal, owners: owners) } ?? true
    switch (principal.role, request) {
    case (_, .hello): return .allowed
    case (.screen, .register(let id, _, _)):
      if owns { return .allowed }
      if owner != nil { return refuse(.ownedByAnother) }
      let owned = owners.values.filter { $0 == principal.key }.count
      guard owned < screensPerKey else { return refuse(.tooManyScreens(limit: screensPerKey)) }
      return .claim(screen: id)
    case (.screen, .snapshot): return .allowed
    case (.screen, .react):
      return owns ? .allowed : refuse(owner == nil ? .notBound : .ownedByAnother)
    case (.remote, .snapshot(_, app: true)): return refuse(.role)
    case (.screen, .heartbeat), (.screen, .patch), (.screen, .input), (.screen, .focus),
      (.screen, .debug):
      return owns ? .allowed : refuse(owner == nil ? .notBound : .ownedByAnother)
    case (.remote, .input), (.remote, .focus), (.remote, .debug), (.remote, .snapshot):
      return bound ? .allowed : refuse(.notBound)
    case (.app, .patch), (.app, .focus), (.app, .debug), (.app, .snapshot), (.app, .react):
      return bound ? .allowed : refuse(.notBound)
    default: return refuse(.role)
    }
  }

  /// Whether `principal` may use `screen` (what hello lists): a screen key the screens it
  /// owns, a remote those it is allowed (all by default), an app those it is bound to.
  static func mayUse(_ screen: String, principal: Principal, owners: [String: String]) -> Bool {
    switch principal.role {
    case .local: true
    case .screen: owners[screen] == principal.key
    case .remote: principal.screens?.contains(screen) ?? true
    case .app: principal.screens?.contains(screen) ?? false
    }
  }

  /// The screen a request names, or for input without one the only session
  /// (`onlySession`, as `apply` resolves it); nil for hello and expiry, or input that names
  /// none while zero or several exist.
  public func screen(of request: BrokerRequest) -> String? {
    switch request {
    case .hello, .expire: nil
    case .register(let screen, _, _), .patch(_, let screen, _), .focus(_, let screen, _),
      .debug(_, let screen), .snapshot(let screen, _), .heartbeat(let screen),
      .react(_, let screen, _):
      screen
    case .input(_, let screen, _, _): screen ?? onlySession
    }
  }
}
