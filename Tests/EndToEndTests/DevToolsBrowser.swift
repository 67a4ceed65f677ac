import TestSupport
import Testing

extension WebPageRemoteTests {
  /// Headless Chromium opened at `url` with the DevTools protocol on a free port, its profile in
  /// `profile`; returns the browser (the caller kills it) and the page's DevTools socket.
  static func devTools(_ url: String, profile: String) async throws -> (
    browser: ChildProcess, page: String
  ) {
    let chromium = try #require(WebScreenTests.chromium, "chromium is not installed")
    let browser = try ChildProcess(
      chromium,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--user-data-dir=\(profile)", "--remote-debugging-port=0", "--remote-allow-origins=*",
        "--window-size=1280,720", url,
      ])
    do {
      let listening = try browser.waitForErrorLine("DevTools listening") {
        $0.contains("DevTools listening on ws://")
      }
      let browserSocket = try #require(listening.split(separator: " ").last.map(String.init))
      let port = try #require(
        browserSocket.split(separator: ":").dropFirst(2).first?.split(separator: "/").first)
      let page = try await pageSocket(browser: browserSocket, port: String(port), url: url)
      return (browser, page)
    } catch {
      browser.kill()
      throw error
    }
  }
}
