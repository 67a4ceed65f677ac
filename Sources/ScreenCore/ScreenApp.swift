import FocusEngine

/// An app on a TenFoot screen: it owns the screen's layout and reacts to what happens on it
/// with commands (docs/apps.md). The same app runs inside a screen process (it registers
/// `layout` and renders) or as its own process bound to a screen (the allow-list's `app`
/// role), unchanged.
///
/// `react` is called on the screen loop's thread, once per event, in order, and should
/// return quickly: its commands are sent as one reaction, and while an activation, back or
/// home waits for it the remote's next presses wait too (at most the broker's reaction
/// deadline, 250 ms).
public protocol ScreenApp: AnyObject {
  /// The layout the app starts with: registered by a screen that runs the app inside it;
  /// an app in its own process puts it on the screen it attaches to. nil: keep the screen's.
  var layout: Layout? { get }

  /// The commands answering `event`, which happened on `screen` (its state after the event).
  func react(to event: AppEvent, on screen: AppScreen) -> [AppCommand]
}

extension ScreenApp {
  /// No layout of its own: the app works on the layout the screen registered.
  public var layout: Layout? { nil }
}

/// What happened on a screen, as an app sees it.
public enum AppEvent: Sendable, Equatable {
  /// The app's first state of the screen: the app has just attached.
  case joined
  /// The screen's state was lost and fetched again (a broker restart or failover, a gap);
  /// the app's layout is the one the screen had.
  case resynced
  /// Focus moved (`from` and `to` may be nil).
  case focusChanged(from: String?, to: String?)
  /// An item was activated (clicked).
  case activated(String)
  /// A toggle's selection changed.
  case selectionChanged(String, selected: Bool)
  /// A text field's text changed.
  case textChanged(String, value: String)
  /// Menu: go back.
  case back
  /// Home (TV) button.
  case home
  /// Play/Pause, with the focused item.
  case playPause(String?)
  /// A long press of select on an item.
  case contextMenu(String)
  /// The pointer moved, appeared or hid (nil: no pointer has been used).
  case pointer(PointerPresentation?)
  /// Items `range` of virtual group `group` came near the window in view (the window and one
  /// window on each side): the app answers with their content, ``AppCommand/setVirtualContent(group:items:)``.
  /// Asked once per window: not again while the window stays inside what was asked for.
  case itemsInView(group: String, range: Range<Int>)

  /// The events a frame brings, in order.
  static func events(in frame: ScreenFrame, previous: ScreenFrame?) -> [AppEvent] {
    var events: [AppEvent] = []
    for effect in frame.events {
      switch effect {
      case .focusChanged(let context):
        events.append(.focusChanged(from: context.previous, to: context.next))
      case .activated(let id): events.append(.activated(id))
      case .selectionChanged(let id, let selected):
        events.append(.selectionChanged(id, selected: selected))
      case .textChanged(let id, let value): events.append(.textChanged(id, value: value))
      case .back: events.append(.back)
      case .home: events.append(.home)
      case .playPause(let id): events.append(.playPause(id))
      case .contextMenu(let id): events.append(.contextMenu(id))
      case .itemsInView(let group, let range):
        events.append(.itemsInView(group: group, range: range))
      case .movementFailed, .highlighted, .scrolled, .focusRequestDenied, .layoutRejected,
        .textRejected, .doubleTap:
        break
      }
    }
    if let previous, frame.pointer != previous.pointer { events.append(.pointer(frame.pointer)) }
    return events
  }
}

/// A screen's state as an app sees it: read-only, the state after the event.
public struct AppScreen: Sendable {
  /// The frame this view reads.
  public let frame: ScreenFrame

  /// A view of `frame`.
  public init(frame: ScreenFrame) { self.frame = frame }

  /// The screen session id.
  public var id: String { frame.screen }
  /// The layout as the broker has it (the app's patches included).
  public var layout: Layout { frame.layout }
  /// The focused item's id.
  public var focused: String? { frame.focused }
  /// Every text field's value.
  public var text: [String: String] { frame.text }

  /// The item with `id`, if the layout has one.
  public func item(_ id: String) -> Item? { frame.layout.items.first { $0.id == id } }
  /// Whether a group with `id` is in the layout (a view the app opened, say).
  public func hasGroup(_ id: String) -> Bool {
    func search(_ groups: [Group]) -> Bool {
      groups.contains { $0.id == id || search($0.groups) }
    }
    return search(frame.layout.groups)
  }
}
