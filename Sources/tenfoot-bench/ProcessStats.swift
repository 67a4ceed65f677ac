import Foundation

/// CPU time and resident memory of a running process, read from `/proc` (Linux).
///
/// `getrusage` only reports children after they exit; `/proc/<pid>/stat` gives the same
/// user + system times (in clock ticks, 10 ms here) while the broker runs.
struct ProcessStats {
  /// User + system CPU time, in seconds.
  var cpuSeconds: Double
  /// Resident set size, in bytes (`VmRSS`).
  var residentBytes: Int

  /// Reads the figures of `pid`; throws if the process is gone.
  static func read(pid: Int32) throws -> ProcessStats {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    // Fields after the command name, which is in parentheses and may contain spaces.
    guard let close = stat.lastIndex(of: ")") else { throw BenchError("unreadable /proc stat") }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // fields[0] is the state (field 3); utime and stime are fields 14 and 15.
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
      throw BenchError("unreadable /proc/\(pid)/stat")
    }
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
      .flatMap { line in line.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
    return ProcessStats(cpuSeconds: (user + system) / ticks, residentBytes: (rss ?? 0) * 1024)
  }
}

/// A benchmark that could not run, with a sentence saying why.
struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
