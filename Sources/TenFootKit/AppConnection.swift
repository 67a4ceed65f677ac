import FocusEngine
import Foundation
import ScreenCore
import Synchronization
import ZeroMQ

/// A connected app, async: its events as an `AsyncSequence` and its commands as async calls,
/// on the same screen loop and the same `AppReaction`s as a ``ScreenApp`` (docs/apps.md,
/// "The async style"). Made by ``TenFootApp/connect(layout:options:answerDeadline:logger:)``.
///
/// ```swift
/// for await update in app.events {
///   if case .activated(let id) = update.event { try await app.patch(page(id)) }
/// }
/// ```
/// A command sent while the loop handles an update answers that update (see ``AppEvents``).
public final class AppConnection: Sendable {
  /// What went wrong with a command: the broker refused it (its typed error), or the
  /// connection stopped before it was applied.
  public struct CommandError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let description: String
  }

  /// The screen's events, in order (one loop at a time).
  public var events: AppEvents { AppEvents(stream: stream, connection: self) }
  /// The screen session id.
  public let screenID: String

  private let stream: AsyncStream<AppUpdate>
  private let queue: AppReactionQueue
  private let stopper: LoopStopper
  private let state = Mutex(State())

  private struct State {
    var book = AnswerBook()
    var nextCommand = 0
    var commands: [Int: CheckedContinuation<Void, any Error>] = [:]
    /// Set once the loop ended: nil inside when it ended without an error.
    var ended: Result<Void, any Error>?
    var waiting: [CheckedContinuation<Void, any Error>] = []
  }

  init(
    screenID: String, stream: AsyncStream<AppUpdate>, queue: AppReactionQueue,
    stopper: LoopStopper
  ) {
    self.screenID = screenID
    self.stream = stream
    self.queue = queue
    self.stopper = stopper
  }

  /// Sends `commands` as one reaction, applied in order, and returns once the broker applied
  /// them; throws ``CommandError`` with the broker's reason when it refused one (those before
  /// it stay applied). Sent while the events loop handles an update, they answer it.
  public func send(_ commands: [AppCommand]) async throws {
    let seq = state.withLock { $0.book.claim() }
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      let id: Int? = state.withLock { state in
        guard state.ended == nil else { return nil }
        state.nextCommand += 1
        state.commands[state.nextCommand] = continuation
        return state.nextCommand
      }
      guard let id else {
        continuation.resume(throwing: CommandError(description: "the app's connection has stopped"))
        return
      }
      queue.post(
        .init(
          stateSeq: seq, commands: { _ in commands },
          refused: { [self] reason in
            resume(id, .failure(CommandError(description: "refused: \(reason)")))
          }, accepted: { [self] in resume(id, .success(())) }))
    }
  }

  /// Changes part of the layout (whole or not at all), maybe moving focus with it.
  public func patch(_ patch: LayoutPatch) async throws { try await send([.patch(patch)]) }
  /// Asks for focus on an item or a group.
  public func focus(_ target: FocusTarget) async throws { try await send([.focus(target)]) }
  /// Puts a whole new layout on the screen.
  public func replaceLayout(_ layout: Layout) async throws {
    try await send([.replaceLayout(layout)])
  }

  /// Supplies content for items of a virtual group by index: the answer to
  /// `.itemsInView(group:range:)` (docs/apps.md, "Content on demand").
  public func setVirtualContent(group: String, items: [Int: VirtualContent]) async throws {
    try await send([.setVirtualContent(group: group, items: items)])
  }

  /// Stops the connection: the events finish, commands not yet applied throw. Idempotent.
  public func stop() { stopper.stop() }

  /// Returns when the connection has stopped; throws what stopped it, if it failed (a refused
  /// key, an invalid layout).
  public func waitUntilStopped() async throws {
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      let ended = state.withLock { state in
        if state.ended == nil { state.waiting.append(continuation) }
        return state.ended
      }
      if let ended { continuation.resume(with: ended) }
    }
  }

  // MARK: - The events loop and the screen loop

  /// The events loop took `update`.
  func begin(_ update: AppUpdate) {
    state.withLock { $0.book.begin(seq: update.seq, awaits: update.awaitsAnswer) }
  }

  /// The events loop is done with its update: one that awaited an answer and got none is
  /// answered with no commands now.
  func closeCurrent() {
    guard let seq = state.withLock({ $0.book.close() }) else { return }
    answerEmpty(seq)
  }

  /// Answers the frame `seq` with no commands (the broker lets the held presses go on).
  func answerEmpty(_ seq: UInt64) {
    queue.post(.init(stateSeq: seq, commands: { _ in [] }, refused: { _ in }))
  }

  /// The screen loop ended with `result`: every command not yet applied throws, and the
  /// waiters of `waitUntilStopped` hear it.
  func ended(_ result: Result<Void, any Error>) {
    let (commands, waiting) = state.withLock { state in
      state.ended = result
      defer {
        state.commands = [:]
        state.waiting = []
      }
      return (state.commands.values, state.waiting)
    }
    for command in commands {
      command.resume(throwing: CommandError(description: "the app's connection has stopped"))
    }
    for waiter in waiting { waiter.resume(with: result) }
  }

  private func resume(_ id: Int, _ result: Result<Void, any Error>) {
    state.withLock { $0.commands.removeValue(forKey: id) }?.resume(with: result)
  }
}
