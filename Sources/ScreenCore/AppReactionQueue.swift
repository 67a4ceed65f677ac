import FocusEngine
import Synchronization
import ZeroMQ

/// Reactions of an app that answers on another thread (a web page running `tenfoot.js`): any
/// thread posts them, the screen's loop thread sends them to the broker as `AppReaction`s.
///
/// The commands are made on the loop thread from the screen's state at that moment
/// (`commands(screen)`), so an answer that describes a whole new view (the page's measured
/// layout) becomes a patch against the layout the broker has. A refusal (the broker's typed
/// error, or a command that cannot be made) goes back to the poster through `refused`.
public final class AppReactionQueue: Sendable {
  /// One answer.
  public struct Reaction: Sendable {
    /// The state sequence of the frame answered (an activation's frame ends its hold); nil:
    /// not an answer to a frame, sent for the latest state.
    public var stateSeq: UInt64?
    /// The commands, made on the loop thread from the screen's state; a thrown error's
    /// description is sent to `refused` and nothing is sent to the broker.
    public var commands: @Sendable (AppScreen) throws -> [AppCommand]
    /// Told why the reaction was refused.
    public var refused: @Sendable (String) -> Void
    /// Told when the broker applied it (or there was nothing to send); exactly one of
    /// `refused` and `accepted` is called for a reaction the loop takes.
    public var accepted: @Sendable () -> Void

    /// A reaction.
    public init(
      stateSeq: UInt64?, commands: @escaping @Sendable (AppScreen) throws -> [AppCommand],
      refused: @escaping @Sendable (String) -> Void, accepted: @escaping @Sendable () -> Void = {}
    ) {
      self.stateSeq = stateSeq
      self.commands = commands
      self.refused = refused
      self.accepted = accepted
    }
  }

  private let waker: Waker
  private let pending = Mutex<[Reaction]>([])
  /// The most reactions kept while the loop is busy; older ones are dropped first.
  public static let capacity = 256

  init(waker: Waker) { self.waker = waker }

  /// Queues `reaction` and wakes the loop.
  public func post(_ reaction: Reaction) {
    pending.withLock { reactions in
      if reactions.count >= Self.capacity { reactions.removeFirst() }
      reactions.append(reaction)
    }
    waker.wake()
  }

  /// Everything queued so far, oldest first; the queue is left empty.
  func drain() -> [Reaction] {
    pending.withLock { reactions in
      defer { reactions.removeAll(keepingCapacity: true) }
      return reactions
    }
  }
}
