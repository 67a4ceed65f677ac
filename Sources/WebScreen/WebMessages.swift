import FocusEngine
import Foundation
import ScreenCore
import TenFootProtocol

/// The JSON the page receives: the layout (sent on connect and when it changes) and frames.
package enum WebMessages {
  /// The layout message: canvas, items, groups, and the engine's per-state scale and shadow
  /// (so the page draws exactly the numbers the focus engine uses).
  static func layout(_ layout: Layout) throws -> String {
    let states: [String: StateStyle] = Dictionary(
      uniqueKeysWithValues: FocusDisplayState.allCases.map { state in
        let shadow = Parallax.shadow(for: state)
        return (
          state.rawValue,
          StateStyle(
            scale: Parallax.scale(for: state),
            shadow: ShadowJSON(
              radius: shadow.radius, offsetY: shadow.offsetY, opacity: shadow.opacity))
        )
      })
    let effects = layout.focusEffects()
    let pointerEffects = layout.pointerEffects()
    let items = Dictionary(
      layout.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let message = LayoutJSON(
      canvas: [layout.canvas.width, layout.canvas.height],
      items: layout.items.map { item in
        ItemJSON(
          id: item.id, title: item.title,
          frame: [item.frame.x, item.frame.y, item.frame.width, item.frame.height],
          kind: item.kind.rawValue, toggles: item.toggles,
          layers: item.layers.map { LayerJSON(name: $0.name, depth: $0.depth) },
          effect: (effects[item.id] ?? .lift).rawValue,
          pointerEffect: (pointerEffects[item.id] ?? .none).rawValue,
          cornerRadius: item.cornerRadius,
          label: item.accessibility.label ?? item.title, hint: item.accessibility.hint,
          subtitle: item.content.subtitle, body: item.content.body, badge: item.content.badge,
          image: item.content.image,
          accent: item.content.accentRGB == nil ? nil : item.content.accent)
      },
      groups: layout.groups.flatMap {
        Self.flatten($0, in: items, parent: nil, navigation: layout.navigation)
      },
      states: states)
    return try encode(message)
  }

  /// The frame message: everything but the layout.
  static func frame(_ frame: ScreenFrame) throws -> String {
    let parallax = frame.parallax.map { value in
      ParallaxJSON(
        item: value.item, rotateX: round(value.rotateX), rotateY: round(value.rotateY),
        scale: round(value.scale), translate: value.translate.map { [round($0.x), round($0.y)] },
        shadow: ShadowJSON(
          radius: value.shadow.radius, offsetY: value.shadow.offsetY,
          opacity: value.shadow.opacity),
        specular: [round(value.specular.x), round(value.specular.y)])
    }
    // Items inside scrolled groups: how far they are shown from their layout frame.
    var shift: [String: [Double]] = [:]
    if !frame.scroll.isEmpty {
      let presented = frame.presentedFrames()
      for item in frame.layout.items {
        guard let shown = presented[item.id] else { continue }
        let offset = [round(shown.x - item.frame.x), round(shown.y - item.frame.y)]
        if offset != [0, 0] { shift[item.id] = offset }
      }
    }
    let windows = frame.virtualWindows()
    var states = frame.states.mapValues(\.rawValue)
    // A virtual item its app supplied as unavailable has no state from the broker: the page
    // draws it as the engine treats it.
    for window in windows {
      for (index, content) in window.content where !content.available {
        let id = VirtualItems.id(group: window.group, index: index)
        if states[id] == nil { states[id] = FocusDisplayState.unavailable.rawValue }
      }
    }
    return try encode(
      FrameJSON(
        screen: frame.screen, epoch: frame.epoch, seq: frame.seq, focused: frame.focused,
        states: states, event: frame.lastEvent, parallax: parallax,
        text: frame.text, editing: frame.editingText, events: frame.events.compactMap(\.eventName),
        shift: shift, announcement: frame.announcement.map(AnnouncementJSON.init),
        pointer: frame.pointer.map(PointerJSON.init),
        virtual: windows.isEmpty
          ? nil
          : Dictionary(
            windows.map { ($0.group, WindowJSON($0)) }, uniquingKeysWith: { first, _ in first })))
  }

  private static func flatten(
    _ group: Group, in items: [String: Item], parent: String?, navigation: NavigationModel
  ) -> [GroupJSON] {
    let label = group.accessibilityName { items[$0] }
    let model = group.navigation ?? navigation
    return [
      GroupJSON(
        id: group.id, items: group.items, scroll: group.scroll?.rawValue,
        viewport: group.viewport.map { [$0.x, $0.y, $0.width, $0.height] },
        trapsFocus: group.trapsFocus, allItems: allItems(of: group), parent: parent, label: label,
        virtual: group.virtual.map { VirtualJSON($0, effect: .default(for: model)) })
    ] + group.groups.flatMap { flatten($0, in: items, parent: group.id, navigation: model) }
  }

  /// The items of `group` and of every group inside it.
  private static func allItems(of group: Group) -> [String] {
    group.items + group.groups.flatMap(allItems)
  }

  /// The pairing overlay message's value: the PIN, the remote's name and the broker's key
  /// fingerprint, or `null` to hide it.
  static func pairing(_ overlay: PairingOverlay?) throws -> String {
    guard let overlay else { return "null" }
    return try encode(
      PairingJSON(
        pin: overlay.pin, remote: overlay.remoteName, broker: overlay.brokerFingerprint))
  }

  /// The link message's value: `{"announcement":"…","up":true}`, or `"up":false` while the
  /// broker does not answer. The page puts the announcement (``BrokerLink/announcement``'s
  /// text) in its live region when the link changes, not on every message that repeats it.
  static func link(_ link: BrokerLink) -> String {
    struct LinkJSON: Encodable {
      let up: Bool
      let announcement: String
    }
    let value = LinkJSON(up: link == .up, announcement: link.announcement.text)
    return (try? encode(value)) ?? (link == .up ? #"{"up":true}"# : #"{"up":false}"#)
  }

  /// The phone remote's QR code message's value: the URL it holds and the code as SVG.
  package static func phoneCode(url: String, svg: String) -> String {
    (try? encode(["url": url, "svg": svg])) ?? "null"
  }

  /// `value` as compact JSON with sorted keys (the page's and the app's messages).
  package static func encode(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  /// `value` to three decimals, as every number the page gets.
  static func round(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

  struct StateStyle: Encodable {
    let scale: Double
    let shadow: ShadowJSON
  }

  struct ShadowJSON: Encodable {
    let radius: Double
    let offsetY: Double
    let opacity: Double
  }

  struct LayerJSON: Encodable {
    let name: String
    let depth: Double
  }

  struct ItemJSON: Encodable {
    let id: String
    let title: String
    let frame: [Double]
    let kind: String
    let toggles: Bool
    let layers: [LayerJSON]
    /// The resolved focus effect: "lift", "halo" or "highlight".
    let effect: String
    /// The resolved pointer effect: "lift", "highlight", "hover" or "none".
    let pointerEffect: String
    /// The shape's corner radius (the halo follows it); nil: the page's card default.
    let cornerRadius: Double?
    /// The spoken name: the accessibility label, else the title.
    let label: String
    let hint: String?
    /// The item's content (``ItemContent``); each absent when unset. `image` is the layout's
    /// reference: the page loads a relative path from `/assets/<path>?key=…`, an `https:`
    /// URL as it is.
    let subtitle: String?
    let body: String?
    let badge: String?
    let image: String?
    /// `#rrggbb`, only when well formed.
    let accent: String?
  }

  struct GroupJSON: Encodable {
    let id: String
    let items: [String]
    let scroll: String?
    let viewport: [Double]?
    /// A modal: the page dims everything outside it while it holds focus.
    let trapsFocus: Bool
    let allItems: [String]
    /// The enclosing group's id (nil: top level).
    let parent: String?
    /// The spoken name (nil: none).
    let label: String?
    /// A virtual group's items (nil: the group lists its items).
    let virtual: VirtualJSON?
  }

  /// A virtual group's declaration, as the page makes its cells: item i sits at column
  /// i % columns, row i / columns, at origin + (column × (size + spacing).width, row × …),
  /// titled titlePrefix and i + 1, with the id `GROUP#i`.
  struct VirtualJSON: Encodable {
    let count: Int
    /// Items per row (a row: all of them; a column: 1).
    let columns: Int
    let origin: [Double]
    let size: [Double]
    let spacing: [Double]
    let titlePrefix: String
    /// The items' focus effect (their group's navigation model's default).
    let effect: String
    /// The items' pointer effect, resolved.
    let pointerEffect: String

    init(_ virtual: VirtualItems, effect: FocusEffectStyle) {
      count = virtual.count
      columns = virtual.columns
      origin = [virtual.origin.x, virtual.origin.y]
      size = [virtual.itemSize.width, virtual.itemSize.height]
      spacing = [virtual.spacing.width, virtual.spacing.height]
      titlePrefix = virtual.titlePrefix
      self.effect = effect.rawValue
      pointerEffect = virtual.pointerEffect.rawValue
    }
  }

  /// A virtual group's window in a frame: the indices in view, the content's shift and the
  /// content supplied for those in view (index → content; nil: none has any). Only the items
  /// in view: a frame carries about a screenful of content whatever the group holds.
  struct WindowJSON: Encodable {
    let shift: [Double]
    let indices: [Int]
    /// Each index's content-space frame `[x, y, width, height]`, as the engine places it.
    let frames: [[Double]]
    let content: [String: CellJSON]?

    init(_ window: VirtualWindow) {
      shift = [WebMessages.round(window.shift.x), WebMessages.round(window.shift.y)]
      indices = window.indices
      frames = window.frames.map { [$0.x, $0.y, $0.width, $0.height] }
      content =
        window.content.isEmpty
        ? nil
        : Dictionary(
          uniqueKeysWithValues: window.content.map { (String($0.key), CellJSON($0.value)) })
    }
  }

  /// What an app supplied for one virtual item (``VirtualContent``), as ``ItemJSON`` names
  /// it; each part absent when unset, `unavailable` present only when true.
  struct CellJSON: Encodable {
    let title: String?
    let subtitle: String?
    let body: String?
    let badge: String?
    let image: String?
    /// `#rrggbb`, only when well formed.
    let accent: String?
    let unavailable: Bool?

    init(_ supplied: VirtualContent) {
      title = supplied.title
      subtitle = supplied.content.subtitle
      body = supplied.content.body
      badge = supplied.content.badge
      image = supplied.content.image
      accent = supplied.content.accentRGB == nil ? nil : supplied.content.accent
      unavailable = supplied.available ? nil : true
    }
  }

  /// What a screen reader says about a frame's step.
  struct AnnouncementJSON: Encodable {
    let text: String
    let parts: [[String: String]]
    let interrupt: Bool

    init(_ announcement: Announcement) {
      text = announcement.text
      parts = announcement.parts.map { ["kind": $0.kind.rawValue, "text": $0.text] }
      interrupt = announcement.interrupt
    }
  }

  struct LayoutJSON: Encodable {
    let canvas: [Double]
    let items: [ItemJSON]
    let groups: [GroupJSON]
    let states: [String: StateStyle]
  }

  struct ParallaxJSON: Encodable {
    let item: String
    let rotateX: Double
    let rotateY: Double
    let scale: Double
    let translate: [[Double]]
    let shadow: ShadowJSON
    let specular: [Double]
  }

  struct PairingJSON: Encodable {
    let pin: String
    let remote: String
    let broker: String
  }

  struct FrameJSON: Encodable {
    let screen: String
    let epoch: UInt64
    let seq: UInt64
    let focused: String?
    let states: [String: String]
    let event: String?
    let parallax: ParallaxJSON?
    let text: [String: String]
    let editing: Bool
    let events: [String]
    /// Item id → [dx, dy] for items moved by scrolling.
    let shift: [String: [Double]]
    let announcement: AnnouncementJSON?
    /// The session's pointer (nil until a pointer has been used).
    let pointer: PointerJSON?
    /// Virtual group id → its window (nil: the layout has no virtual group).
    let virtual: [String: WindowJSON]?
  }

  /// What the page draws for the pointer: where (canvas points, magnetised), whether shown,
  /// its shape ("circle", "ibeam", "item" or an app's name), its target's effect and target.
  struct PointerJSON: Encodable {
    let x: Double
    let y: Double
    let visible: Bool
    let shape: String
    let effect: String
    let target: String?

    init(_ pointer: PointerPresentation) {
      x = WebMessages.round(pointer.position.x)
      y = WebMessages.round(pointer.position.y)
      visible = pointer.visible
      shape = pointer.shape
      effect = pointer.effect == .automatic ? "none" : pointer.effect.rawValue
      target = pointer.target
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(x, forKey: .x)
      try container.encode(y, forKey: .y)
      try container.encode(visible, forKey: .visible)
      try container.encode(shape, forKey: .shape)
      try container.encode(effect, forKey: .effect)
      // Always present: null without a target (the page tests it).
      try container.encode(target, forKey: .target)
    }

    enum CodingKeys: String, CodingKey { case x, y, visible, shape, effect, target }
  }
}
