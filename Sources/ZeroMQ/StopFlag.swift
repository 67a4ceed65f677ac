import Synchronization

/// A thread-safe one-way flag for asking a loop to stop.
public final class StopFlag: Sendable {
  private let value = Atomic<Bool>(false)

  /// Creates an unset flag.
  public init() {}

  /// Sets the flag.
  public func set() { value.store(true, ordering: .releasing) }

  /// Whether the flag was set.
  public var isSet: Bool { value.load(ordering: .acquiring) }
}
