import ArgumentParser
import FocusEngine
import Foundation
import Logging
import ScreenCore
import Synchronization
import TenFootCLI

/// The async style: connect, then `for await` the events and `await` the commands.
extension TenFootApp {
  /// How long the screen waits for an async app's answer to an activation, back or home before
  /// it answers with nothing and the held presses go on (below the broker's 250 ms).
  public static let answerDeadline: Duration = .milliseconds(200)

  /// Connects an async app that starts with `layout` (nil: attached, it keeps the screen's),
  /// as `options` say, and runs its screen loop on a thread of its own until ``AppConnection/stop()``
  /// or a failure retrying cannot fix (then ``AppConnection/waitUntilStopped()`` throws it).
  /// An event the app has not answered within `answerDeadline` is answered with nothing.
  /// Logs to `logger` (a library does not bootstrap logging; ``main(layout:_:)`` does).
  public static func connect(
    layout: Layout?, options: AppOptions, answerDeadline: Duration = answerDeadline,
    logger: Logger = Logger(label: "tenfoot.app")
  ) throws -> AppConnection {
    let (stream, continuation) = AsyncStream.makeStream(
      of: AppUpdate.self, bufferingPolicy: .bufferingNewest(bufferedUpdates))
    // The bridge needs the connection to answer what the buffer drops; the connection needs
    // the client's queue: the box is filled once, before the loop starts.
    let connectionBox = Mutex<AppConnection?>(nil)
    let bridge = EventBridge(layout: layout, continuation: continuation) { dropped in
      guard dropped.awaitsAnswer else { return }
      connectionBox.withLock { $0 }?.answerEmpty(dropped.seq)
    }
    let client = try client(
      for: bridge, options: options, answersLater: answerDeadline, logger: logger)
    let connection = AppConnection(
      screenID: options.id, stream: stream, queue: client.reactions, stopper: client.stopper)
    connectionBox.withLock { $0 = connection }
    let stopper = client.stopper
    continuation.onTermination = { _ in stopper.stop() }
    let owned = OwnedClient(client: client)
    let thread = Thread {
      let result = Result { try run(owned.client) }
      bridge.finish()
      connection.ended(result)
    }
    thread.name = "tenfoot-app"
    thread.start()
    return connection
  }

  /// Parses the command line, connects an app that starts with `layout`, runs `body` with the
  /// connection (a `for await` loop over its events), and exits when `body` returns or the
  /// connection stops: 0 when stopped (SIGINT, SIGTERM), 1 with the error's message when it
  /// fails, 64 for a usage error.
  public static func main(
    layout: Layout?, _ body: @Sendable (AppConnection) async throws -> Void
  ) async -> Never {
    SignalWatcher.start()
    let options: AppOptions
    do {
      options = try AppOptions.parse(Array(CommandLine.arguments.dropFirst()))
      if options.printKey {
        try printKey(options)
        AppOptions.exit()
      }
    } catch {
      AppOptions.exit(withError: error)
    }
    do {
      let app = try connect(
        layout: layout, options: options, logger: bootstrapLogging(options))
      SignalWatcher.onTerminate { app.stop() }
      try await body(app)
      app.stop()
      try await app.waitUntilStopped()
    } catch {
      AppOptions.exit(withError: error)
    }
    AppOptions.exit()
  }

  /// The most updates kept for an events loop that is busy; the oldest go first (one that
  /// awaited an answer is answered with nothing).
  static let bufferedUpdates = 1024
}

/// Carries a screen client to the thread that runs it: made on the caller's thread, it is used
/// by that thread only from then on (a ZeroMQ socket may move between threads with a full
/// barrier, which starting a thread is).
private struct OwnedClient: @unchecked Sendable {
  let client: ScreenClient
}
