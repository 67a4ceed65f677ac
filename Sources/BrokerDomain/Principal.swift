/// Who sent a request, as the broker's rules see it: a local peer (no CURVE: ipc:// in a
/// private directory, or an explicit `--insecure` broker) or an allow-listed key with its role
/// and the screens it is bound to. The runtime builds it from the ZAP `User-Id` and the
/// allow-list; the request's own `sender` field is never trusted for it.
public struct Principal: Sendable, Equatable {
  /// What the peer may do (docs/security.md, "Roles").
  public enum Role: String, Sendable, Equatable {
    /// No CURVE identity: trusted like the operator.
    case local
    /// A screen key: registers, keeps alive and patches the screens it owns.
    case screen
    /// A remote key: input, focus and debug requests for the screens it may use.
    case remote
    /// An app key: patches, focuses and reads the screens it is bound to.
    case app
  }

  /// The short id people know the key by (`tenfoot-broker remotes list`); "local" for local.
  public var id: String
  /// The whole public key in hex: the identity screens are owned by ("" for local).
  public var key: String
  /// The role.
  public var role: Role
  /// The screens the peer is bound to (a remote: nil means all; an app: nil means none; a
  /// screen key: the ids it owns, from the allow-list).
  public var screens: Set<String>?

  /// A principal.
  public init(id: String, key: String, role: Role, screens: Set<String>? = nil) {
    self.id = id
    self.key = key
    self.role = role
    self.screens = screens
  }

  /// A local peer: may do everything.
  public static let local = Principal(id: "local", key: "", role: .local)
}
