import FocusEngine
import Foundation
import ScreenCore

/// Writes one JSON object per applied state, one per line, for tests and tools:
/// `{"screen":…,"epoch":…,"seq":…,"focused":"<id>"|null,"states":{"<id>":"focused",…},
/// "event":"…","announcement":{"text":…,"parts":[{"kind":…,"text":…}],"interrupt":…}|null,
/// "effects":{"<id>":"lift",…},"focusEffect":{"item","effect","cornerRadius"}|null,
/// "pointerEffects":{"<id>":"lift",…},
/// "pointer":{"x","y","visible","shape","effect","target"}|null}`.
/// Keys are sorted, so equal frames give equal lines.
public final class HeadlessRenderer: Renderer, PairingDisplay, LinkDisplay {
  private let output: FileHandle
  private let encoder: JSONEncoder

  /// Writes to `path`, or to standard output for `-`.
  public init(path: String) throws {
    if path == "-" {
      output = .standardOutput
    } else {
      // open(2), not FileManager.createFile: that one writes a temporary file and renames it
      // over the path, which would replace a device such as /dev/null with a regular file.
      let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else {
        throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
      }
      output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }
    encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  }

  /// Nothing to prepare.
  public func start() throws {}

  /// Writes the frame's line and flushes it, so a reader sees each state as it is applied.
  public func render(_ frame: ScreenFrame) throws {
    var line = try encoder.encode(HeadlessFrame(frame))
    line.append(0x0A)
    try output.write(contentsOf: line)
  }

  /// Writes `{"pairing":{"broker":…,"pin":…,"remote":…}}` (or `{"pairing":null}` when the
  /// PIN is hidden) as its own line.
  public func showPairing(_ overlay: PairingOverlay?) throws {
    var line = try encoder.encode(HeadlessPairing(overlay: overlay))
    line.append(0x0A)
    try output.write(contentsOf: line)
  }

  /// Writes `{"pairingClosed":true}` when pairing closes after too many wrong PINs and
  /// `{"pairingClosed":false}` when it opens again, each as its own line.
  public func showPairingClosed(_ closed: Bool) throws {
    var line = try encoder.encode(["pairingClosed": closed])
    line.append(0x0A)
    try output.write(contentsOf: line)
  }

  /// Writes `{"announcement":{…},"link":"lost"}` when the broker stops answering and
  /// `{"announcement":{…},"link":"up"}` when it is back, each as its own line: the
  /// announcement (``BrokerLink/announcement``) has a frame's shape (`text`, `parts`,
  /// `interrupt`).
  public func showLink(_ link: BrokerLink) throws {
    var line = try encoder.encode(HeadlessLink(link: link))
    line.append(0x0A)
    try output.write(contentsOf: line)
  }

  /// Never needs waking.
  public var wakeFileDescriptor: Int32? { nil }

  /// Never called.
  public func handleWake() throws {}

  /// Nothing to restore.
  public func stop() {}
}

/// The JSON shape of a headless link line: `{"announcement":{…},"link":"lost"|"up"}`.
struct HeadlessLink: Encodable {
  let link: BrokerLink

  enum Keys: String, CodingKey { case link, announcement }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(link == .up ? "up" : "lost", forKey: .link)
    try link.announcement.encode(into: &container, forKey: .announcement)
  }
}

extension Announcement {
  private enum Keys: String, CodingKey { case text, parts, interrupt }

  /// Encodes `{"text":…,"parts":[{"kind":…,"text":…}],"interrupt":…}` under `key`.
  fileprivate func encode<Key: CodingKey>(
    into container: inout KeyedEncodingContainer<Key>, forKey key: Key
  ) throws {
    var nested = container.nestedContainer(keyedBy: Keys.self, forKey: key)
    try nested.encode(text, forKey: .text)
    try nested.encode(parts.map { ["kind": $0.kind.rawValue, "text": $0.text] }, forKey: .parts)
    try nested.encode(interrupt, forKey: .interrupt)
  }
}

/// The JSON shape of a headless frame.
struct HeadlessFrame: Encodable {
  let frame: ScreenFrame

  init(_ frame: ScreenFrame) { self.frame = frame }

  enum Keys: String, CodingKey {
    case screen, epoch, seq, focused, states, event, parallax, text, editing, events, scroll
    case announcement, effects, focusEffect, pointer, pointerEffects, content, virtual
  }

  enum ContentKeys: String, CodingKey { case subtitle, body, badge, image, accent }

  enum PointerKeys: String, CodingKey { case x, y, visible, shape, effect, target }

  enum FocusEffectKeys: String, CodingKey { case item, effect, cornerRadius }

  enum ParallaxKeys: String, CodingKey {
    case item, rotateX, rotateY, scale, translate, shadow, specular
  }

  enum ShadowKeys: String, CodingKey { case radius, offsetY, opacity }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(frame.screen, forKey: .screen)
    try container.encode(frame.epoch, forKey: .epoch)
    try container.encode(frame.seq, forKey: .seq)
    if let focused = frame.focused {
      try container.encode(focused, forKey: .focused)
    } else {
      try container.encodeNil(forKey: .focused)
    }
    try container.encode(frame.states.mapValues(\.rawValue), forKey: .states)
    try container.encodeIfPresent(frame.lastEvent, forKey: .event)
    if let parallax = frame.parallax {
      var nested = container.nestedContainer(keyedBy: ParallaxKeys.self, forKey: .parallax)
      try nested.encode(parallax.item, forKey: .item)
      try nested.encode(Self.round(parallax.rotateX), forKey: .rotateX)
      try nested.encode(Self.round(parallax.rotateY), forKey: .rotateY)
      try nested.encode(Self.round(parallax.scale), forKey: .scale)
      try nested.encode(
        parallax.translate.map { [Self.round($0.x), Self.round($0.y)] }, forKey: .translate)
      var shadow = nested.nestedContainer(keyedBy: ShadowKeys.self, forKey: .shadow)
      try shadow.encode(parallax.shadow.radius, forKey: .radius)
      try shadow.encode(parallax.shadow.offsetY, forKey: .offsetY)
      try shadow.encode(parallax.shadow.opacity, forKey: .opacity)
      try nested.encode(
        [Self.round(parallax.specular.x), Self.round(parallax.specular.y)], forKey: .specular)
    } else {
      try container.encodeNil(forKey: .parallax)
    }
    try container.encode(frame.text, forKey: .text)
    try container.encode(frame.editingText, forKey: .editing)
    try container.encode(frame.events.compactMap(\.eventName), forKey: .events)
    try container.encode(
      frame.scroll.mapValues { [Self.round($0.x), Self.round($0.y)] }, forKey: .scroll)
    if let announcement = frame.announcement {
      try announcement.encode(into: &container, forKey: .announcement)
    } else {
      try container.encodeNil(forKey: .announcement)
    }
    try encodeEffects(into: &container)
    try encodePointer(into: &container)
    try encodeContent(into: &container)
    try encodeVirtual(into: &container)
  }

  /// `"virtual": {"<id>": "<title>"}` for the virtual items inside their group's viewport
  /// (scrolled by its offset; the canvas for a group without one), absent when the layout has
  /// no virtual group: only what is on screen, whatever the count.
  private func encodeVirtual(into container: inout KeyedEncodingContainer<Keys>) throws {
    var titles: [String: String] = [:]
    for item in frame.visibleVirtualItems() { titles[item.id] = item.title }
    guard !titles.isEmpty else { return }
    try container.encode(titles, forKey: .virtual)
  }

  /// `"content": {"<id>": {"subtitle", "body", "badge", "image", "accent"}}` for every item
  /// with content (only the parts it sets), the virtual items in view included; absent when no
  /// item has any.
  private func encodeContent(into container: inout KeyedEncodingContainer<Keys>) throws {
    let items = (frame.layout.items + frame.visibleVirtualItems()).filter { !$0.content.isEmpty }
    guard !items.isEmpty else { return }
    var byItem = container.nestedContainer(keyedBy: ItemKey.self, forKey: .content)
    for item in items {
      var nested = byItem.nestedContainer(keyedBy: ContentKeys.self, forKey: ItemKey(item.id))
      try nested.encodeIfPresent(item.content.subtitle, forKey: .subtitle)
      try nested.encodeIfPresent(item.content.body, forKey: .body)
      try nested.encodeIfPresent(item.content.badge, forKey: .badge)
      try nested.encodeIfPresent(item.content.image, forKey: .image)
      try nested.encodeIfPresent(item.content.accent, forKey: .accent)
    }
  }

  /// An item id as a JSON key.
  struct ItemKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ id: String) { stringValue = id }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// `"pointerEffects": {"<id>": "lift"|"highlight"|"hover"|"none"}` for every item but
  /// labels (`automatic` resolved), and `"pointer": {"x", "y", "visible", "shape", "effect",
  /// "target"}` (null until a pointer has been used).
  private func encodePointer(into container: inout KeyedEncodingContainer<Keys>) throws {
    let effects = frame.layout.pointerEffects()
    var shown: [String: String] = [:]
    for item in frame.layout.items where item.kind != .label {
      shown[item.id] = effects[item.id]?.rawValue
    }
    try container.encode(shown, forKey: .pointerEffects)
    guard let pointer = frame.pointer else {
      try container.encodeNil(forKey: .pointer)
      return
    }
    var nested = container.nestedContainer(keyedBy: PointerKeys.self, forKey: .pointer)
    try nested.encode(Self.round(pointer.position.x), forKey: .x)
    try nested.encode(Self.round(pointer.position.y), forKey: .y)
    try nested.encode(pointer.visible, forKey: .visible)
    try nested.encode(pointer.shape, forKey: .shape)
    try nested.encode(pointer.effect.rawValue, forKey: .effect)
    try nested.encode(pointer.target, forKey: .target)
  }

  /// `"effects": {"<id>": "lift"|"halo"|"highlight"}` for every item but labels, and
  /// `"focusEffect": {"item", "effect", "cornerRadius"}` for the focused item (or null).
  private func encodeEffects(into container: inout KeyedEncodingContainer<Keys>) throws {
    let effects = frame.layout.focusEffects()
    var shown: [String: String] = [:]
    for item in frame.layout.items where item.kind != .label {
      shown[item.id] = effects[item.id]?.rawValue
    }
    try container.encode(shown, forKey: .effects)
    guard let focused = frame.focused, let effect = effects[focused] else {
      try container.encodeNil(forKey: .focusEffect)
      return
    }
    var nested = container.nestedContainer(keyedBy: FocusEffectKeys.self, forKey: .focusEffect)
    try nested.encode(focused, forKey: .item)
    try nested.encode(effect.rawValue, forKey: .effect)
    let radius = frame.layout.items.first { $0.id == focused }?.cornerRadius
    try nested.encode(radius, forKey: .cornerRadius)
  }

  /// Three decimals: enough for tests and people, and stable across platforms.
  static func round(_ value: Double) -> Double {
    (value * 1000).rounded() / 1000
  }
}

/// The JSON shape of a headless pairing line.
struct HeadlessPairing: Encodable {
  let overlay: PairingOverlay?

  enum Keys: String, CodingKey { case pairing }
  enum OverlayKeys: String, CodingKey { case pin, remote, broker }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    guard let overlay else {
      try container.encodeNil(forKey: .pairing)
      return
    }
    var nested = container.nestedContainer(keyedBy: OverlayKeys.self, forKey: .pairing)
    try nested.encode(overlay.pin, forKey: .pin)
    try nested.encode(overlay.remoteName, forKey: .remote)
    try nested.encode(overlay.brokerFingerprint, forKey: .broker)
  }
}
