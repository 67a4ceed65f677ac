import TenFootProtocol
import TestSupport
import ZeroMQ

/// Memory per idle screen: a fresh broker's RSS before and after registering `screens`
/// sessions with `layout` (no inputs, no subscribers) of `items` items.
enum IdleBench {
  static func run(
    _ transport: BenchProcesses.Transport, screens: Int, layout: Tenfoot_V1_Layout, items: Int
  ) throws -> IdleResult {
    let directory = try TemporaryDirectory()
    let broker = try BenchProcesses.broker(transport, in: directory)
    defer { broker.stop() }
    let context = try Context()
    defer { context.shutdown() }
    // One screen first, so the "before" figure includes the broker's one-time allocations.
    try BenchPeers.register(["warm"], layout: layout, context: context, control: broker.control)
    let before = try ProcessStats.read(pid: broker.process.pid)
    let start = MonotonicClock.nanoseconds()
    try BenchPeers.register(
      (0..<screens).map { "idle\($0)" }, layout: layout, context: context,
      control: broker.control)
    let seconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
    let after = try ProcessStats.read(pid: broker.process.pid)
    let perScreen = Double(after.residentBytes - before.residentBytes) / Double(screens) / 1024
    return IdleResult(
      screens: screens, itemsPerScreen: items,
      brokerRSSMiBBefore: ScaleBench.mebibytes(before.residentBytes),
      brokerRSSMiBAfter: ScaleBench.mebibytes(after.residentBytes),
      kibPerScreen: (perScreen * 10).rounded() / 10,
      registrationSeconds: (seconds * 100).rounded() / 100)
  }
}
