import Synchronization

/// A thread-safe one-way flag for asking a loop to stop.
final class StopFlag: Sendable {
  private let value = Atomic<Bool>(false)

  /// Creates an unset flag.
  init() {}

  /// Sets the flag.
  func set() { value.store(true, ordering: .releasing) }

  /// Whether the flag was set.
  var isSet: Bool { value.load(ordering: .acquiring) }
}
