import NIOCore

/// Runs a task's jobs on a SwiftNIO event loop. A page's frame writer runs there, on the
/// thread that owns the page's socket: a frame the screen's loop publishes wakes that one
/// thread, which writes it to the socket at once, instead of waking a server thread
/// (`ServerExecutor`) that hands the write to the event loop, a second wake-up on the way to
/// the page (the page path's accounting in docs/apps.md, "What it costs").
///
/// Only short, non-blocking work belongs here (encoding a frame message, writing it): a job
/// that blocked would stall every connection on that event loop. The loop must outlive the
/// task: the web server's loops are SwiftNIO's singleton group (Hummingbird's default), which
/// never shuts down.
final class EventLoopExecutor: TaskExecutor {
  private let eventLoop: any EventLoop

  /// An executor whose jobs run on `eventLoop`.
  init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    eventLoop.execute { job.runSynchronously(on: executor) }
  }
}
