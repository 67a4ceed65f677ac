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
  /// The peak resident set size since the process started, in bytes (`VmHWM`): the kernel's
  /// own maximum, which sampling `VmRSS` can miss.
  var peakResidentBytes: Int

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
    let lines = status.split(separator: "\n")
    func kibibytes(_ field: String) -> Int {
      lines.first { $0.hasPrefix(field) }
        .flatMap { line in line.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
    }
    return ProcessStats(
      cpuSeconds: (user + system) / ticks, residentBytes: kibibytes("VmRSS:") * 1024,
      peakResidentBytes: kibibytes("VmHWM:") * 1024)
  }
}

extension ProcessStats {
  /// The CPU time, in seconds, of `pid`'s threads whose name starts with `prefix` (libzmq's I/O
  /// threads are `ZMQbg/IO/<n>`), from `/proc/<pid>/task/*/stat`; 0 if none is found.
  static func threadCPUSeconds(pid: Int32, prefix: String) -> Double {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    let ticks = tasks.reduce(0.0) { total, task in
      guard
        let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
        let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
        stat[stat.index(after: open)..<close].hasPrefix(prefix)
      else { return total }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12])
      else { return total }
      return total + user + system
    }
    return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
}

/// A benchmark that could not run, with a sentence saying why.
struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
