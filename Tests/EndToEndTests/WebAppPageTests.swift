import Foundation
import HummingbirdWSClient
import Logging
import Synchronization
import TestSupport
import Testing

/// A developer's page (`--app`) beyond the example: item content read from the DOM, the page's
/// own text fields, two tabs of one browser, and a message too big for the screen. Real
/// broker, web screen, `tenfoot-remote` and headless Chromium read through DevTools.
@Suite("Your own web page: content, text fields, tabs, size", .serialized)
struct WebAppPageTests {
  static var enabled: Bool { WebAppTests.enabled }
  static func state(_ id: String) -> String { WebAppTests.state(id) }

  /// A row of buttons `c0`… (`count`), as page body.
  static func row(_ count: Int) -> String {
    let buttons = (0..<count).map { #"<button data-focus-id="c\#($0)">C\#($0)</button>"# }
    return #"<div class="row" data-focus-group="row">\#(buttons.joined())</div>"#
  }

  /// Records the page's `tenfoot:*` events of `types` in `globalThis.seen[type]`.
  static func recording(_ types: [String]) -> String {
    """
    globalThis.seen = {};
    for (const type of [\(types.map { "'\($0)'" }.joined(separator: ", "))]) {
      seen[type] = [];
      document.addEventListener('tenfoot:' + type, (e) => seen[type].push(e.detail || {}));
    }
    """
  }

  /// Aligns the row's children at the top (inline boxes of different content otherwise sit on
  /// one baseline at different heights, and reading order starts with the higher one).
  static let topAligned =
    "document.querySelectorAll('.row > *').forEach((e) => { e.style.verticalAlign = 'top'; });"

  @Test(
    "subtitle and badge from data attributes or marked children go into the layout and are announced",
    .enabled(if: enabled))
  func content() async throws {
    try await WebAppTests.withApp(
      body: """
        <div class="row" data-focus-group="row">
        <button data-focus-id="orbit" data-focus-subtitle="2031, space drama"
          data-focus-badge="New">Orbit</button>
        <button data-focus-id="canyon"><span data-focus-content="title">Canyon</span>
          <span data-focus-content="subtitle">Desert heist</span>
          <span data-focus-content="badge">4K</span></button></div>
        """,
      script: "document.body.dataset.focusVerbosity = 'high'; \(Self.topAligned)"
    ) { devtools, page in
      let stack = page.stack
      try await devtools.waitFor("Orbit focused", "\(Self.state("orbit")) === 'focused'")
      let live = "document.querySelector('[data-tenfoot-live]').textContent"
      #expect(try WebAppTests.press(stack, "right").last?.hasSuffix("focused canyon") == true)
      try await devtools.waitFor(
        "Canyon announced with its subtitle and badge from marked children",
        "\(live).startsWith('Canyon') && \(live).includes('Desert heist') && \(live).includes('4K')"
      )
      #expect(try WebAppTests.press(stack, "left").last?.hasSuffix("focused orbit") == true)
      try await devtools.waitFor(
        "Orbit announced with its subtitle and badge from data attributes",
        "\(live).startsWith('Orbit') && \(live).includes('2031, space drama') && \(live).includes('New')"
      )
      let canyon = try await devtools.evaluate(
        "JSON.stringify(tenfoot.measure().items.find((i) => i.id === 'canyon'))")
      let item = try #require(
        (canyon as? String).flatMap {
          try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        })
      #expect(item["title"] as? String == "Canyon")
      #expect(item["subtitle"] as? String == "Desert heist")
      #expect(item["badge"] as? String == "4K")
    }
  }

  @Test(
    "text typed into the page's own input reaches the broker as the field's text; the remote's typing fills the input",
    .enabled(if: enabled))
  func textField() async throws {
    try await WebAppTests.withApp(
      body: #"""
        <div class="row" data-focus-group="row"><input data-focus-id="search" placeholder="Search"><button data-focus-id="go">Go</button></div>
        """#,
      script: Self.recording(["text"]) + Self.topAligned, mirror: true
    ) { devtools, page in
      let stack = page.stack
      let mirror = try #require(page.mirror)
      try await devtools.waitFor(
        "the search field focused, in TenFoot and in the DOM",
        "\(Self.state("search")) === 'focused' && document.activeElement?.dataset.focusId === 'search'"
      )
      try await devtools.call("Input.insertText", ["text": "dune"])
      try await devtools.waitFor(
        "the broker's text change comes back as tenfoot:text",
        "seen.text.some((e) => e.id === 'search' && e.value === 'dune')")
      try mirror.waitForFrame("the session holds the page's text") { $0.text["search"] == "dune" }
      let typed = try stack.remote(["type", " messiah"])
      #expect(typed.status == 0, "\(typed.errors)")
      try await devtools.waitFor(
        "the remote's typing shows in the input",
        "document.querySelector('input').value === 'dune messiah'")
      // Backspace edits the field; it is not Menu.
      for type in ["rawKeyDown", "keyUp"] {
        try await devtools.call(
          "Input.dispatchKeyEvent",
          ["type": type, "key": "Backspace", "code": "Backspace", "windowsVirtualKeyCode": 8])
      }
      try mirror.waitForFrame("the edit reaches the session") {
        $0.text["search"] == "dune messia"
      }
      #expect(try WebAppTests.press(stack, "right").last?.hasSuffix("focused go") == true)
    }
  }

  @Test(
    "a field's text in the DOM registers as the session's, and the page's script changing it (input and textarea .value, contenteditable content) changes the session's",
    .enabled(if: enabled))
  func scriptFieldText() async throws {
    try await WebAppTests.withApp(
      body: #"""
        <div class="row" data-focus-group="row"><input data-focus-id="search" value="dune"><textarea data-focus-id="notes">spice</textarea><div data-focus-id="poem" contenteditable="true">arrakis</div></div>
        """#,
      script: Self.topAligned
        // Beside the text area (the page's CSP allows no style attributes, a script's styles).
        + "document.querySelector('[contenteditable]').style.display = 'inline-block';",
      mirror: true
    ) { devtools, page in
      let stack = page.stack
      let mirror = try #require(page.mirror)
      try await devtools.waitFor(
        "the search field focused", "\(Self.state("search")) === 'focused'")
      try mirror.waitForFrame("the session holds each field's text from the DOM") {
        $0.text["search"] == "dune" && $0.text["notes"] == "spice" && $0.text["poem"] == "arrakis"
      }
      // `.value` fires no event and no mutation: nothing else on the page changes.
      _ = try await devtools.evaluate(
        """
        document.querySelector('input').value = 'changed by script';
        document.querySelector('textarea').value = 'notes by script';
        true
        """)
      let values = try mirror.waitForFrame("the session holds the script's .value text") {
        $0.text["search"] == "changed by script" && $0.text["notes"] == "notes by script"
      }
      _ = try await devtools.evaluate(
        "document.querySelector('[contenteditable]').textContent = 'poem by script'; true")
      let written = try mirror.waitForFrame(
        from: values.index + 1, "the session holds the script's editable content"
      ) {
        $0.text["poem"] == "poem by script" && $0.text["search"] == "changed by script"
      }
      // The remote types; the script then writes the value the layout already declares: the
      // app's write still wins.
      let typed = try stack.remote(["type", " twice"])
      #expect(typed.status == 0, "\(typed.errors)")
      try await devtools.waitFor(
        "the remote's typing shows in the input",
        "document.querySelector('input').value === 'changed by script twice'")
      let twice = try mirror.waitForFrame(from: written.index + 1, "the session holds the typing") {
        $0.text["search"] == "changed by script twice"
      }
      _ = try await devtools.evaluate(
        "document.querySelector('input').value = 'changed by script'; true")
      let overwritten = try mirror.waitForFrame(
        from: twice.index + 1, "the script's write overwrites the typing"
      ) {
        $0.text["search"] == "changed by script" && $0.text["notes"] == "notes by script"
      }
      // Editable content holding plain text takes the remote's typing too, and the session
      // keeps it (the write is not taken for the script's).
      let toNotes = try WebAppTests.press(stack, "right")
      #expect(toNotes.last?.contains("focused notes") == true, "\(toNotes)")
      let toPoem = try WebAppTests.press(stack, "right")
      #expect(toPoem.last?.contains("focused poem") == true, "\(toPoem)")
      let poem = try stack.remote(["type", " typed"])
      #expect(poem.status == 0, "\(poem.errors)")
      try await devtools.waitFor(
        "the remote's typing shows in the editable content",
        "document.querySelector('[contenteditable]').textContent === 'poem by script typed'")
      let settled = try mirror.waitForFrame(
        from: overwritten.index + 1, "the session holds the typing into the editable content"
      ) { $0.text["poem"] == "poem by script typed" }
      #expect(settled.frame.text["search"] == "changed by script")
    }
  }

  @Test(
    "a page message over 8 MiB is not sent: tenfoot:error says so, the connection stays, the screen keeps serving",
    .enabled(if: enabled))
  func oversizeLayout() async throws {
    try await WebAppTests.withApp(
      body: Self.row(3),
      script: Self.recording(["error", "disconnected"])
    ) { devtools, page in
      let stack = page.stack
      try await devtools.waitFor("c0 focused", "\(Self.state("c0")) === 'focused'")
      _ = try await devtools.evaluate(
        "document.querySelector('[data-focus-id=c1]').dataset.focusTitle = 'x'.repeat(9 << 20); true"
      )
      try await devtools.waitFor(
        "the page hears its layout is too big",
        "seen.error.some((e) => e.message.includes('too big'))")
      _ = try await devtools.evaluate(
        "delete document.querySelector('[data-focus-id=c1]').dataset.focusTitle; true")
      #expect(try WebAppTests.press(stack, "right").last?.hasSuffix("focused c1") == true)
      try await devtools.waitFor("c1 focused in the DOM", "\(Self.state("c1")) === 'focused'")
      let dropped = try await devtools.evaluate("seen.disconnected.length")
      #expect(dropped as? Int == 0, "the page's connection was not closed")
    }
  }

  /// A second tab in `browser` (Chromium opened by `HeadlessChromium`) at `url`: its DevTools
  /// page socket.
  static func newTab(_ browser: ChildProcess, url: String) async throws -> String {
    let listening = try #require(
      browser.errors.first { $0.contains("DevTools listening on ws://") }, "no DevTools line")
    let socket = try #require(listening.split(separator: " ").last.map(String.init))
    let port = try #require(
      socket.split(separator: ":").dropFirst(2).first?.split(separator: "/").first)
    let target = Mutex("")
    try await WebSocketClient.connect(url: socket, logger: Logger(label: "test.cdp")) {
      inbound, outbound, _ in
      let result = try await DevTools(inbound: inbound, outbound: outbound).call(
        "Target.createTarget", ["url": url])
      target.withLock { $0 = result["targetId"] as? String ?? "" }
    }
    let id = target.withLock { $0 }
    try #require(!id.isEmpty, "Target.createTarget gave no target")
    return "ws://127.0.0.1:\(port)/devtools/page/\(id)"
  }

  /// Runs `body` with DevTools on the tab at `page`.
  static func withTab(_ page: String, _ body: @escaping @Sendable (DevTools) async throws -> Void)
    async throws
  {
    try await WebSocketClient.connect(
      url: page, configuration: .init(maxFrameSize: 1 << 24), logger: Logger(label: "test.cdp")
    ) { inbound, outbound, _ in
      try await body(DevTools(inbound: inbound, outbound: outbound))
    }
  }

  @Test(
    "two tabs: the newer page is the app; the older hears tenfoot:inactive and its DOM changes no longer patch",
    .enabled(if: enabled))
  func twoTabs() async throws {
    let stack = try Stack(.ipc)
    let app = try WebAppTests.appDirectory(
      stack, body: Self.row(4), script: Self.recording(["inactive"]))
    let (web, url) = try stack.webScreen(["--app", app])
    defer { web.kill() }
    let (browser, first) = try await HeadlessChromium.open(
      url, profile: "\(stack.directory.path)/chromium-tabs")
    defer { browser.kill() }
    let shared = Unchecked(value: stack)
    try await Self.withTab(first) { older in
      try await older.waitFor("c0 focused in the first tab", "\(Self.state("c0")) === 'focused'")
      let olderTab = Unchecked(value: older)
      try await Self.withTab(try await Self.newTab(browser, url: url)) { newer in
        let (stack, older) = (shared.value, olderTab.value)
        try await newer.waitFor(
          "c0 focused in the second tab", "\(Self.state("c0")) === 'focused'")
        try await older.waitFor(
          "the first tab hears it is not the app any more",
          "seen.inactive.length === 1 && \(Self.state("c0")) === null")
        #expect(try await newer.evaluate("seen.inactive.length") as? Int == 0)
        // The newer tab removes c3; the older tab, after it, would remove c1 and c2 (the last
        // layout sent would win): only the newer tab's page counts.
        _ = try await newer.evaluate(
          "document.querySelector('[data-focus-id=c3]').remove(); tenfoot.refresh(); true")
        _ = try await older.evaluate(
          "document.querySelectorAll('[data-focus-id=c1], [data-focus-id=c2]').forEach((e) => e.remove()); tenfoot.refresh(); true"
        )
        let moved = try WebAppTests.press(stack, "right", "right")
        #expect(moved.first?.hasSuffix("focused c1") == true, "\(moved)")
        #expect(moved.last?.hasSuffix("focused c2") == true, "\(moved)")
        try await newer.waitFor("c2 focused in the newer tab", "\(Self.state("c2")) === 'focused'")
      }
    }
  }
}
