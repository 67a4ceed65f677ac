import FocusEngine
import Foundation
import ScreenCore

/// Frames and layouts the renderers' tests share: each renderer (terminal, SVG, headless) is
/// tested in its own target, against the same frames.
public enum ScreenFrames {
  /// Two cards side by side on a 600×260 canvas; "a" is focused.
  public static func focusEffect(
    _ effect: FocusEffectStyle?, radius: Double? = nil, navigation: NavigationModel = .tvos,
    state: FocusDisplayState = .focused
  ) -> ScreenFrame {
    let layout = Layout(
      canvas: Size(width: 600, height: 260),
      items: [
        Item(
          id: "a", title: "Alpha", frame: Rect(x: 60, y: 60, width: 180, height: 120),
          focusEffect: effect, cornerRadius: radius),
        Item(id: "b", title: "Beta", frame: Rect(x: 330, y: 60, width: 180, height: 120)),
      ], navigation: navigation)
    return ScreenFrame(
      screen: "main", epoch: 1, seq: 3, layout: layout, focused: "a",
      states: ["a": state, "b": .unfocused])
  }

  /// A row of 1,000,000 posters 300 wide, 40 apart, in a 1920-wide scrolling viewport,
  /// scrolled to show items 500,000 to 500,005; item 500,002 focused.
  public static func virtualRail() -> ScreenFrame {
    let layout = Layout(
      items: [],
      groups: [
        Group(
          id: "rail", scroll: .horizontal, viewport: Rect(x: 0, y: 0, width: 1920, height: 1080),
          virtual: VirtualItems(
            count: 1_000_000, itemSize: Size(width: 300, height: 400),
            spacing: Size(width: 40, height: 0), titlePrefix: "Title "))
      ])
    var frame = ScreenFrame(
      screen: "main", epoch: 1, seq: 3, layout: layout, focused: "rail#500002",
      states: ["rail#500002": .focused])
    frame.scroll = ["rail": Point(x: 500_000 * 340, y: 0)]
    return frame
  }

  /// The example layout, decoded and validated.
  public static func contentExample() throws -> Layout {
    let data = try Data(
      contentsOf: URL(fileURLWithPath: repositoryRoot()).appendingPathComponent(
        "examples/content.json"))
    let layout = try JSONDecoder().decode(Layout.self, from: data)
    try layout.validate()
    return layout
  }

  /// A frame of `layout` with `focused` focused and the unavailable items unavailable.
  public static func content(_ layout: Layout, focused: String) -> ScreenFrame {
    var states: [String: FocusDisplayState] = [:]
    for item in layout.items where item.kind != .label {
      states[item.id] = item.id == focused ? .focused : item.available ? .unfocused : .unavailable
    }
    return ScreenFrame(
      screen: "main", epoch: 1, seq: 3, layout: layout, focused: focused, states: states,
      lastEvent: nil)
  }

  /// Posters with hostile content: markup, a control character, a wide badge.
  public static let hostileContent = Layout(
    canvas: Size(width: 800, height: 400),
    items: [
      Item(
        id: "a", title: "A", frame: Rect(x: 20, y: 20, width: 300, height: 360),
        content: ItemContent(
          subtitle: "<b>1999</b> & \"more\"", badge: "<New & hot>", accent: "#ff8800")),
      Item(
        id: "b", title: "B", frame: Rect(x: 420, y: 20, width: 300, height: 360),
        content: ItemContent(subtitle: "tab\u{1B}[31mred", badge: "新作")),
    ])

  /// The template's page: a menu item and a tall card with a body, on the default canvas.
  public static func page(body: String, subtitle: String? = nil) -> Layout {
    Layout(items: [
      Item(
        id: "weather", title: "Weather", frame: Rect(x: 80, y: 120, width: 420, height: 100)),
      Item(
        id: "page-weather", title: "Weather", frame: Rect(x: 600, y: 120, width: 1200, height: 600),
        content: ItemContent(subtitle: subtitle, body: body)),
    ])
  }

  /// Hostile bodies: escapes and controls, bidirectional overrides, a word far wider than any
  /// card, wide characters, combining marks piled up, line and paragraph separators.
  public static let hostileBodies = [
    "\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[31mred\r\nnext\u{9B}1m",
    "\u{202E}txet desrever\u{202C} \u{2067}isolated\u{2069} end",
    String(repeating: "W", count: 500),
    String(repeating: "新作", count: 200),
    "e" + String(repeating: "\u{301}", count: 40) + " " + String(repeating: "a\u{200D}", count: 90),
    "one\u{2028}two\u{2029}three\u{85}four\t\u{0}five",
  ]
}
