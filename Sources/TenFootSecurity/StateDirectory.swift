import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where a TenFoot program keeps what must survive restarts (keys, allow-list, session state).
///
/// Default: `$TENFOOT_STATE_DIR`, else `/var/lib/tenfoot` for root, else
/// `$XDG_STATE_HOME/tenfoot`, else `~/.local/state/tenfoot`; each program uses its own
/// subdirectory (`broker`, `remote`, `screen`). Directories are created with mode 0700 and
/// refused if another user owns them or others can enter them.
public enum StateDirectory {
  /// The base directory for the given environment (no subdirectory, not created).
  public static func base(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> String
  {
    if let explicit = environment["TENFOOT_STATE_DIR"], !explicit.isEmpty { return explicit }
    if getuid() == 0 { return "/var/lib/tenfoot" }
    if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return xdg + "/tenfoot" }
    let home = environment["HOME"] ?? NSHomeDirectory()
    return home + "/.local/state/tenfoot"
  }

  /// `explicit` if given, else `base()/program`; created private (0700) and checked.
  public static func prepare(
    explicit: String?, program: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(StoreError) -> String {
    let path = explicit ?? base(environment: environment) + "/" + program
    try makePrivateDirectory(path)
    return path
  }

  /// Creates `path` (and missing parents) with mode 0700 and checks that it is private.
  public static func makePrivateDirectory(_ path: String) throws(StoreError) {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      prefix += "/" + component
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
        throw StoreError.system("mkdir \(prefix)", errno)
      }
    }
    var info = stat()
    guard lstat(path, &info) == 0 else { throw StoreError.system("stat \(path)", errno) }
    guard (info.st_mode & S_IFMT) == S_IFDIR else {
      throw StoreError.insecure(path, "not a directory")
    }
    guard info.st_uid == getuid() else {
      throw StoreError.insecure(path, "it belongs to another user")
    }
    if info.st_mode & 0o077 != 0 {
      throw StoreError.insecure(
        path, "mode \(String(info.st_mode & 0o777, radix: 8)); run: chmod 700 \(path)")
    }
  }
}
