import FocusEngine
import ScreenCore

/// One event on the screen, as an async app's `for await` loop takes it: what happened and
/// the screen's state after it.
public struct AppUpdate: Sendable {
  /// What happened.
  public let event: AppEvent
  /// The screen's state after the event (read-only).
  public let screen: AppScreen

  /// An update.
  public init(event: AppEvent, screen: AppScreen) {
    self.event = event
    self.screen = screen
  }

  /// The state sequence of the frame that brought the event.
  public var seq: UInt64 { screen.frame.seq }

  /// Whether the broker holds the remote's next presses until the app answers this event (an
  /// activation, back or home), at most the connection's deadline.
  public var awaitsAnswer: Bool {
    switch event {
    case .activated, .back, .home: true
    default: false
    }
  }
}

/// The events of an ``AppConnection``, in order: `for await update in app.events { … }`.
///
/// The commands the loop's body sends for an update (``AppConnection/send(_:)`` and the
/// helpers) answer that update: for an activation, back or home, the first of them ends the
/// broker's hold, so the presses after it land in what the app made. A body that sends
/// nothing answers with nothing when the loop asks for the next update. The sequence finishes
/// when the connection stops (``AppConnection/stop()``, SIGTERM, or a failure that retrying
/// cannot fix); a broker restart or failover is not an end: the loop gets `.resynced`.
/// Cancelling the task that iterates stops the connection. One loop iterates at a time.
public struct AppEvents: AsyncSequence, Sendable {
  public typealias Element = AppUpdate
  public typealias Failure = Never

  let stream: AsyncStream<AppUpdate>
  let connection: AppConnection

  /// The iterator: closes the update handled before it waits for the next.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncStream<AppUpdate>.AsyncIterator
    let connection: AppConnection

    /// The next update, or nil once the connection stopped.
    public mutating func next() async -> AppUpdate? {
      connection.closeCurrent()
      guard let update = await base.next() else { return nil }
      connection.begin(update)
      return update
    }
  }

  /// An iterator over the connection's events.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: stream.makeAsyncIterator(), connection: connection)
  }
}

/// The `ScreenApp` an async app is to the screen loop: it hands each event to the stream and
/// answers nothing itself (the connection answers through the screen's reaction queue).
final class EventBridge: ScreenApp, Sendable {
  let layout: Layout?
  private let continuation: AsyncStream<AppUpdate>.Continuation
  /// Told about an update the stream's buffer dropped (a loop that stopped reading).
  private let dropped: @Sendable (AppUpdate) -> Void

  init(
    layout: Layout?, continuation: AsyncStream<AppUpdate>.Continuation,
    dropped: @escaping @Sendable (AppUpdate) -> Void
  ) {
    self.layout = layout
    self.continuation = continuation
    self.dropped = dropped
  }

  func react(to event: AppEvent, on screen: AppScreen) -> [AppCommand] {
    if case .dropped(let old) = continuation.yield(AppUpdate(event: event, screen: screen)) {
      dropped(old)
    }
    return []
  }

  /// The loop ended: the stream finishes.
  func finish() { continuation.finish() }
}
