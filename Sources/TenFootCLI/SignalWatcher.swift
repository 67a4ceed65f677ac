import Dispatch
import Foundation

/// Runs a handler on SIGINT or SIGTERM instead of dying, so loops close their sockets.
public enum SignalWatcher {
  nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
  // nonisolated(unsafe) is sound: `sources` is only appended to from `onTerminate`, which
  // executables call once from their main thread before any signal can arrive.

  /// Calls `handler` (on a background queue) when SIGINT or SIGTERM arrives.
  public static func onTerminate(_ handler: @escaping @Sendable () -> Void) {
    for number in [SIGINT, SIGTERM] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler(handler: handler)
      source.resume()
      sources.append(source)
    }
  }
}
