import Foundation
import HummingbirdWSClient
import Logging
import Synchronization
import TestSupport
import Testing

/// The page as a remote, in a real browser: headless Chromium driven over the DevTools
/// protocol presses keys and drags on the touch pad, and the focus and tilt come back.
@Suite("Web page as a remote", .serialized)
struct WebPageRemoteTests {
  @Test(
    "arrow keys and a drag on the page's touch pad reach the broker and come back as focus and tilt",
    .enabled(if: WebScreenTests.chromium != nil || WebScreenTests.browserRequired))
  func keysAndPad() async throws {
    let setup = WebScreenTests()
    let (stack, web, mirror, url) = try setup.start()
    let mirrorBox = Unchecked(value: mirror)
    try await HeadlessChromium.withPage(url, profile: "\(stack.directory.path)/chromium-cdp") {
      devtools in
      // The page runs under its Content Security Policy: every violation from the document's
      // start is collected (by a DevTools script, which the policy does not cover), reloaded.
      try await devtools.call("Page.enable")
      try await devtools.call(
        "Page.addScriptToEvaluateOnNewDocument",
        [
          "source":
            "window.cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));"
        ])
      try await devtools.call("Page.reload")
      try await devtools.waitFor(
        "p0 focused on the reloaded page",
        "Array.isArray(window.cspViolations) && document.querySelector('.item.focused')?.dataset.id === 'p0'"
      )
      try await devtools.key("ArrowRight", code: 39)
      try await devtools.waitFor(
        "p1 focused on the page", "document.querySelector('.item.focused')?.dataset.id === 'p1'")
      try mirrorBox.value.waitForFrame("the broker moved focus to p1") { $0.focused == "p1" }
      // A finger on the pad's centre, slid right, resting.
      let touch = try await devtools.slideRightOnPad()
      try await devtools.waitFor(
        "p1 tilted on the page",
        "/rotateY\\((\\d+\\.?\\d*)deg\\)/.test(document.getElementById('item-p1').style.transform) && parseFloat(document.getElementById('item-p1').style.transform.match(/rotateY\\(([-\\d.]+)deg\\)/)[1]) > 0.5"
      )
      try mirrorBox.value.waitForFrame("the broker tilts p1") {
        $0.focused == "p1" && ($0.rotateY ?? 0) > 0.5
      }
      try await devtools.lift(touch)
      try await devtools.waitFor(
        "p1 back at rest after lift-off",
        "document.getElementById('item-p1').style.transform.includes('rotateY(0deg)')")
      let violations = try await devtools.evaluate("JSON.stringify(window.cspViolations)")
      #expect(violations as? String == "[]", "CSP violations: \(String(describing: violations))")
      let policy = try await devtools.evaluate(
        "fetch(location.href).then((r) => r.headers.get('content-security-policy'))")
      #expect(
        (policy as? String)?.contains("frame-ancestors 'none'") == true,
        "the page's policy: \(String(describing: policy))")
    }
    try setup.stopsCleanly(web)
  }
}
