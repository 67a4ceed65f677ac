import Dispatch

/// Where the page server's tasks run: threads of its own instead of Swift concurrency's
/// shared pool (two threads on a two-core machine), so code elsewhere in the process that
/// blocks a pool thread (a test waiting on a child process, say) cannot stall the page, and a
/// burst of page requests cannot stall that code.
final class ServerExecutor: TaskExecutor {
  private let queue = DispatchQueue(label: "tenfoot.web-server", attributes: .concurrent)

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}
