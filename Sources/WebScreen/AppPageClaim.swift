import Synchronization

/// Which of a developer's page's connections (`--app`) is the app: the newest. A kiosk's
/// reloaded or reopened page takes over from a tab left open; the older connection is told
/// (`{"inactive":{…}}`, a `tenfoot:inactive` event), its messages are ignored from then on, and
/// it is closed. Only one page registers the layout and answers the broker's frames.
final class AppPageClaim: Sendable {
  private struct Holder {
    var id: Int
    var takeOver: @Sendable () -> Void
  }

  private struct State {
    var holder: Holder?
    var nextID = 0
  }

  private let state = Mutex(State())

  /// What an older page hears when a newer one takes over.
  static let inactiveMessage =
    #"{"inactive":{"message":"another page connected and is the app now; reload this one to take over"}}"#

  /// Makes a new connection the app, telling the previous one (`takeOver` is called on this
  /// connection's turn); returns its claim.
  func claim(takeOver: @escaping @Sendable () -> Void) -> Int {
    let (id, previous) = state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      let previous = state.holder
      state.holder = Holder(id: id, takeOver: takeOver)
      return (id, previous)
    }
    previous?.takeOver()
    return id
  }

  /// Whether `claim` is still the app.
  func holds(_ claim: Int) -> Bool {
    state.withLock { $0.holder?.id == claim }
  }

  /// The connection with `claim` ended.
  func release(_ claim: Int) {
    state.withLock { state in
      if state.holder?.id == claim { state.holder = nil }
    }
  }
}
