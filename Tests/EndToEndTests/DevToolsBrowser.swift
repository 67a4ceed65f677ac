import TestSupport
import Testing

extension WebPageRemoteTests {
  /// Headless Chromium opened at `url` with the DevTools protocol on a free port, its profile in
  /// `profile`; returns the browser (the caller kills it) and the page's DevTools socket.
  static func devTools(_ url: String, profile: String) async throws -> (
    browser: ChildProcess, page: String
  ) {
    _ = try #require(WebScreenTests.chromium, "chromium is not installed")
    return try await HeadlessChromium.open(url, profile: profile)
  }
}
