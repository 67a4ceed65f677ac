import Foundation
import TenFootSecurity
import TenFootStore
import ZeroMQ
import ZoneFencing

/// Why the active broker of a zone stops serving and stands by again.
public enum StepDownReason: Sendable, Equatable, CustomStringConvertible {
  /// A write (sessions, the allow-list, or the lease's renewal) was refused: a newer term of
  /// the zone exists.
  case fenced(Fenced)
  /// A session commit's outcome is unknown (the connection broke mid-commit): the sessions in
  /// memory may be behind the store, so the zone is taken again, loading them.
  case outcomeUnknown(SessionStoreError)
  /// Renewing the lease failed (store unreachable or too slow past the lease).
  case lostLock(SessionStoreError)
  /// The broker's loop ended by itself.
  case loopEnded

  public var description: String {
    switch self {
    case .fenced(let fenced): "\(fenced)"
    case .outcomeUnknown(let error): "\(error)"
    case .lostLock(let error): "lost the zone's lock: \(error)"
    case .loopEnded: "the broker loop ended"
    }
  }
}

/// What the signal watcher and the store's fencing tell the zone loop, across threads: stop
/// for good (`terminate`), or step down (`fence`). The zone loop's waits (`pause`) end at
/// once on either, instead of sleeping through them.
public final class ZoneControl: @unchecked Sendable {
  // @unchecked Sendable is sound: every stored property is only touched under `condition`.
  private let condition = NSCondition()
  private var terminated = false
  private var fenced: StepDownReason?
  private var stopper: LoopStopper?

  public init() {}

  /// Whether SIGINT or SIGTERM arrived.
  public var isTerminated: Bool { locked { terminated } }
  /// Why the serving broker must step down (nil: no reason yet).
  public var fenceReason: StepDownReason? { locked { fenced } }

  /// SIGINT or SIGTERM: stop serving and stop standing by.
  public func terminate() {
    let stopper = locked {
      terminated = true
      condition.broadcast()
      return self.stopper
    }
    stopper?.stop()
  }

  /// The store refused a write, or its outcome is unknown: stop serving. The first reason is
  /// kept.
  public func fence(_ reason: StepDownReason) {
    let stopper = locked {
      if fenced == nil { fenced = reason }
      condition.broadcast()
      return self.stopper
    }
    stopper?.stop()
  }

  /// The stopper of the broker now serving (nil: none); clears the fence.
  public func serving(_ stopper: LoopStopper?) {
    let stop = locked {
      self.stopper = stopper
      if stopper == nil { fenced = nil }
      return terminated
    }
    if stop { stopper?.stop() }
  }

  /// Waits `duration`, or less if the loop is terminated or fenced meanwhile; whether it was
  /// terminated.
  public func pause(_ duration: Duration) -> Bool {
    let deadline = Date(timeIntervalSinceNow: Double(duration / .microseconds(1)) / 1e6)
    return locked {
      while !terminated, fenced == nil, condition.wait(until: deadline) {}
      return terminated
    }
  }

  private func locked<T>(_ body: () -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }
}
