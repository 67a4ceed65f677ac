import Foundation

/// Where another thread hands a renderer (the terminal, the SVG files) the phone remote's URL
/// (the page server publishes a new one whenever a token is used or expires): it keeps the
/// newest URL and wakes the renderer's loop if one is attached (the terminal's), which draws
/// the new code on its own thread.
public final class PhoneCodeSlot: @unchecked Sendable {
  // @unchecked Sendable is sound: every field is read and written under `lock`.
  private let lock = NSLock()
  private var url: String?
  private var changed = false
  private var wake: (() -> Void)?

  package init() {}

  /// Shows `url` as the code (nil hides it): drawn at once if the screen is running.
  public func show(_ url: String?) {
    lock.lock()
    defer { lock.unlock() }
    self.url = url
    changed = true
    wake?()
  }

  /// How to wake the renderer's loop while it runs (nil: stopped). Called on the thread that
  /// shows a new URL, under the slot's lock, so it must only signal (e.g. poke a pipe).
  package func attach(wake: (() -> Void)?) {
    lock.lock()
    defer { lock.unlock() }
    self.wake = wake
  }

  /// The URL if it changed since the last call.
  package func takeChange() -> String?? {
    lock.lock()
    defer { lock.unlock() }
    guard changed else { return nil }
    changed = false
    return .some(url)
  }
}
