import Foundation
import HummingbirdWSClient
import Logging
import TestSupport
import Testing

/// Focus everyone can follow, across real processes: the catalog app's web page as an
/// accessibility tree read through Chromium's DevTools Accessibility domain, and the
/// announcer's words spoken into WAV files by `tenfoot-screen --speak`.
@Suite("Accessible screens across processes", .serialized)
struct AccessibleScreenTests {
  /// One node of Chromium's accessibility tree.
  struct AXNode {
    let raw: [String: Any]
    var id: String { raw["nodeId"] as? String ?? "" }
    var role: String { (raw["role"] as? [String: Any])?["value"] as? String ?? "" }
    var name: String { (raw["name"] as? [String: Any])?["value"] as? String ?? "" }
    var parent: String? { raw["parentId"] as? String }
    var children: [String] { raw["childIds"] as? [String] ?? [] }
    var ignored: Bool { raw["ignored"] as? Bool ?? false }

    /// Whether this element has focus (the document's root, focused with its window, aside).
    var isFocusedElement: Bool { property("focused") as? Bool == true && role != "RootWebArea" }

    /// A property's value (`focused`, `modal`, `disabled`, `live`, …).
    func property(_ name: String) -> Any? {
      let properties = raw["properties"] as? [[String: Any]] ?? []
      return (properties.first { $0["name"] as? String == name }?["value"] as? [String: Any])?[
        "value"]
    }
  }

  /// The page's whole accessibility tree, by node id.
  static func tree(_ devtools: DevTools) async throws -> [String: AXNode] {
    let result = try await devtools.call("Accessibility.getFullAXTree")
    let nodes = (result["nodes"] as? [[String: Any]] ?? []).map(AXNode.init)
    return Dictionary(nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// The text inside a node (its static text descendants, in order).
  static func text(of node: AXNode, in tree: [String: AXNode]) -> String {
    node.children.compactMap { tree[$0] }.map { child in
      child.role == "StaticText" ? child.name : text(of: child, in: tree)
    }.joined()
  }

  /// Starts the stack, the catalog app on the web renderer and a headless mirror; returns
  /// the page's URL once the mirror shows the first focus.
  func start() throws -> (stack: Stack, web: ChildProcess, mirror: ChildProcess, url: String) {
    let stack = try Stack(.ipc)
    let (web, url) = try stack.webScreen([])
    let mirror = try stack.screen(["--mirror"])
    try mirror.waitForFrame("the mirror's first frame") { $0.focused == "upnext-0" }
    return (stack, web, mirror, url)
  }

  @Test(
    "after press down right right the focused accessibility node is Quiet Hours in the Trending listbox, the live region says the announcement, and the detail view is a modal dialog",
    .enabled(if: WebScreenTests.chromium != nil || WebScreenTests.browserRequired))
  func accessibilityTree() async throws {
    let (stack, web, mirror, url) = try start()
    let shared = Unchecked(value: (stack, mirror))
    // The whole tree arrives as one large frame.
    try await HeadlessChromium.withPage(url, profile: "\(stack.directory.path)/chromium-ax") {
      devtools in
      let (stack, mirror) = shared.value
      // A headless page is never the focused window: emulate it, so DOM focus is reported.
      try await devtools.call("Emulation.setFocusEmulationEnabled", ["enabled": true])
      try await devtools.call("Accessibility.enable")
      try await devtools.waitFor(
        "the first poster has DOM focus",
        "document.activeElement && document.activeElement.dataset.id === 'upnext-0'")

      let press = try stack.remote(["press", "down", "right", "right"])
      #expect(press.status == 0, "\(press.errors)")
      try mirror.waitForFrame("the broker focused Quiet Hours") { $0.focused == "trending-3" }
      let said = mirror.frames.compactMap(\.announcement)
      #expect(
        said.contains("Trending, Orbit, button, 1 of 11"),
        "entering the row names it: \(said)")
      #expect(said.last == "Quiet Hours, button, 3 of 11", "\(said)")
      try await devtools.waitFor(
        "Quiet Hours focused and announced on the page",
        "document.activeElement.dataset.id === 'trending-3' && document.getElementById('announcer').textContent === 'Quiet Hours, button, 3 of 11'"
      )

      var tree = try await Self.tree(devtools)
      let focused = tree.values.filter(\.isFocusedElement)
      #expect(focused.count == 1, "one focused node: \(focused.map(\.raw))")
      let poster = try #require(focused.first)
      #expect(poster.role == "option" && poster.name == "Quiet Hours", "\(poster.raw)")
      #expect(poster.property("selected") as? Bool == false, "\(poster.raw)")
      let row = try #require(poster.parent.flatMap { tree[$0] }, "the poster's parent")
      #expect(row.role == "listbox" && row.name == "Trending", "\(row.raw)")
      let locked = tree.values.first { $0.name == "Locked" && $0.role == "option" }
      #expect(locked?.property("disabled") as? Bool == true, "\(String(describing: locked?.raw))")
      #expect(tree.values.contains { $0.role == "heading" && $0.name == "Trending" })
      let live = try #require(
        tree.values.first { $0.property("live") as? String == "polite" && $0.role == "status" },
        "an aria-live region")
      #expect(Self.text(of: live, in: tree) == "Quiet Hours, button, 3 of 11")

      // Select opens the detail view: a modal dialog named after the poster, holding focus.
      let select = try stack.remote(["press", "select"])
      #expect(select.status == 0, "\(select.errors)")
      try mirror.waitForFrame("the detail view has focus") { $0.focused == "detail-play" }
      try await devtools.waitFor(
        "the detail view's Play button focused on the page",
        "document.activeElement.dataset.id === 'detail-play'")
      tree = try await Self.tree(devtools)
      let dialog = try #require(
        tree.values.first { $0.role == "dialog" && !$0.ignored }, "a dialog in the tree")
      #expect(dialog.name == "Quiet Hours details", "\(dialog.raw)")
      #expect(dialog.property("modal") as? Bool == true, "\(dialog.raw)")
      let focusedNow = tree.values.first(where: \.isFocusedElement)
      let play = try #require(focusedNow)
      #expect(play.role == "button" && play.name == "Play Quiet Hours", "\(play.raw)")
      #expect(play.parent == dialog.id)
      try await devtools.waitFor(
        "the dialog announced",
        "document.getElementById('announcer').textContent === 'Quiet Hours details, Play Quiet Hours, button, 1 of 6'"
      )
    }
    web.kill()
  }

  @Test(
    "tenfoot-screen --speak says each focus change: the announcement in the frame, as sound in a WAV file",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/espeak-ng")
        || WebScreenTests.browserRequired))
  func speaks() throws {
    let stack = try Stack(.ipc)
    let wav = stack.directory.path + "/speech"
    try FileManager.default.createDirectory(atPath: wav, withIntermediateDirectories: true)
    let screen = try stack.screen([
      "--speak", "--speech-wav", wav, "--verbosity", "high", "--log-level", "debug",
    ])
    try screen.waitForFrame("the first focus") { $0.focused == "upnext-0" }
    let press = try stack.remote(["press", "down"])
    #expect(press.status == 0, "\(press.errors)")
    let moved = try screen.waitForFrame("focus on Orbit") { $0.focused == "trending-0" }
    #expect(
      moved.frame.announcement
        == "Trending, Orbit, button, 1 of 11. Select to open its details")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(moved.frame.line.utf8)) as? [String: Any])
    let announcement = try #require(object["announcement"] as? [String: Any])
    #expect(announcement["interrupt"] as? Bool == true)
    let parts = try #require(announcement["parts"] as? [[String: String]])
    #expect(parts.first == ["kind": "group", "text": "Trending"])
    #expect(parts.last == ["kind": "hint", "text": "Select to open its details"])
    // The speaker logs each utterance it finished: Orbit's, written whole.
    let finished = try screen.waitForErrorLine(timeout: 30, "Orbit's utterance finished") {
      $0.contains("utterance finished") && $0.contains("Orbit")
    }
    #expect(finished.contains("speech.status=0"), "\(finished)")
    let number = try #require(
      finished.components(separatedBy: "speech.utterance=").last?.prefix { $0.isNumber },
      "\(finished)")
    let peak = try SpeakerWAV.peak("\(wav)/utterance-\(number).wav")
    #expect(peak > 1000, "Orbit's WAV is silent (peak \(peak))")
    screen.kill()
  }
  @Test(
    "a refused move (trapped in a detail view) is announced in the screen's frames while the remote is told it bumped"
  )
  func refusalAnnounced() throws {
    let stack = try Stack(.ipc)
    let screen = try stack.screen([])
    try screen.waitForFrame("the first focus") { $0.focused == "upnext-0" }
    for key in ["down", "down"] {
      let press = try stack.remote(["press", key])
      #expect(press.status == 0, "\(key): \(press.errors)")
    }
    try screen.waitForFrame("focus on Old Roads") { $0.focused == "classics-0" }
    let select = try stack.remote(["press", "select"])
    #expect(select.status == 0, "\(select.errors)")
    let detail = try screen.waitForFrame("the detail view") { $0.focused == "detail-play" }
    let trapped = try stack.remote(["press", "up"])
    #expect(
      trapped.status == 0 && trapped.output.contains { $0.contains("bump up") },
      "a trapped move is a bump: \(trapped.output) \(trapped.errors)")
    let said = try screen.waitForFrame("the refusal's announcement") {
      $0.seq > detail.frame.seq && ($0.announcement ?? "").lowercased().contains("trapped")
    }
    #expect(said.frame.focused == "detail-play", "focus stays in the detail view")
    #expect(said.frame.announcement?.contains("Old Roads details") == true, "\(said.frame)")
    screen.kill()
  }
}

/// Reads a 16-bit PCM WAV file's peak amplitude.
enum SpeakerWAV {
  static func peak(_ path: String) throws -> Int {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    guard bytes.count > 44 else { return 0 }
    var peak = 0
    var at = 44
    while at + 1 < bytes.count {
      let sample = Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8)
      peak = max(peak, abs(Int(sample)))
      at += 2
    }
    return peak
  }
}
