import Foundation

/// A tmpfs of a given size mounted for one test (root only), filled and freed on demand: a
/// data directory whose disk runs full.
public struct SmallFilesystem: Sendable {
  /// The mount point.
  public let path: String

  /// Mounts a private (mode 0700) tmpfs of `size` (mount's syntax: "1m") at `path`; throws if
  /// mount fails.
  public init(at path: String, size: String) throws {
    self.path = path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let status = try Self.run(
      "/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tenfoot-test", path])
    guard status == 0 else {
      throw ChildProcessError(
        description: "mount -t tmpfs failed (exit \(status)) although running as root")
    }
  }

  /// Fills the filesystem: writes until the kernel says ENOSPC.
  public func fill() throws {
    let fd = open(path + "/filler", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else {
      throw ChildProcessError(description: "cannot create the filler file: errno \(errno)")
    }
    defer { close(fd) }
    let chunk = [UInt8](repeating: 0x55, count: 4096)
    var written = 0
    while true {
      let result = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if result > 0 {
        written += result
        continue
      }
      guard result < 0, errno == ENOSPC, written > 0 else {
        throw ChildProcessError(description: "filling stopped with errno \(errno)")
      }
      return
    }
  }

  /// Frees what `fill` took.
  public func free() {
    unlink(path + "/filler")
  }

  /// Unmounts (lazily, so a process still holding a file cannot keep it mounted).
  public func unmount() {
    _ = try? Self.run("/bin/umount", ["-l", path])
  }

  private static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }
}
