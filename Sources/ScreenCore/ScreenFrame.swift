import FocusEngine
import TenFootProtocol

/// Everything a renderer needs to draw one applied state of a screen session.
///
/// The screen loop builds it from the broker's snapshot (which carries the layout) and the
/// deltas applied since; renderers never talk to sockets.
public struct ScreenFrame: Sendable, Equatable {
  /// The screen session id (`--id`).
  public var screen: String
  /// The broker's epoch (changes when the broker restarts).
  public var epoch: UInt64
  /// The sequence number of the last applied state.
  public var seq: UInt64
  /// The layout as the broker knows it: canvas, items with titles and frames, groups.
  public var layout: Layout
  /// The focused item id, or nil when nothing has focus.
  public var focused: String?
  /// The display state of every item in the layout.
  public var states: [String: FocusDisplayState]
  /// A short line about the last change (e.g. "right → r0c1", "bump ←"), for status lines.
  /// Made when read: a delta's frame keeps the effects it applied (see ``EventLine``).
  public var lastEvent: String? {
    get { eventLine.text }
    set { eventLine = .text(newValue) }
  }
  /// What `lastEvent` is made from.
  var eventLine: EventLine
  /// The focused item's parallax (tilt, scale, layers, shadow, specular), if anything is
  /// focused.
  public var parallax: Parallax?
  /// Every text field's value.
  public var text: [String: String] = [:]
  /// Whether the focused item is a text field.
  public var editingText = false
  /// The engine's effects applied in this frame, typed (activations, selections, back, home,
  /// bumps, …): apps switch over them; text edges name them with `FocusEffect.eventName`.
  public var events: [FocusEffect] = []
  /// Scrolling group id → its offset (content moved left and up by this much).
  public var scroll: [String: Point] = [:]
  /// What a screen reader says about this frame's step (nil: nothing new to say).
  public var announcement: Announcement?
  /// The session's pointer: where it is drawn, its shape, its target's effect (nil: no pointer
  /// has been used).
  public var pointer: PointerPresentation?

  /// Creates a frame.
  public init(
    screen: String, epoch: UInt64, seq: UInt64, layout: Layout, focused: String?,
    states: [String: FocusDisplayState], lastEvent: String? = nil
  ) {
    self.screen = screen
    self.epoch = epoch
    self.seq = seq
    self.layout = layout
    self.focused = focused
    self.states = states
    self.eventLine = .text(lastEvent)
  }
}

extension ScreenFrame {
  /// Every item's frame as shown: moved by the scroll offsets of the groups around it.
  public func presentedFrames() -> [String: Rect] {
    var shift: [String: Point] = [:]
    func walk(_ group: Group, _ inherited: Point, _ outer: Rect?) {
      let view = self.view(of: group, inside: outer)
      var total = inherited
      if let own = scroll[group.id] {
        total.x += own.x
        total.y += own.y
      }
      for item in drawnMembers(of: group, in: view) { shift[item] = total }
      for child in group.groups { walk(child, total, view) }
    }
    for group in layout.groups { walk(group, .zero, nil) }
    var frames: [String: Rect] = [:]
    let items = drawnItems
    frames.reserveCapacity(items.count)
    for item in items {
      let offset = shift[item.id] ?? .zero
      frames[item.id] = Rect(
        x: item.frame.x - offset.x, y: item.frame.y - offset.y, width: item.frame.width,
        height: item.frame.height)
    }
    return frames
  }

  /// Where each item inside scrolling groups may be seen: the intersection of its groups'
  /// viewports as shown (each moved by the scrolling of the groups around it). Items outside
  /// every viewport are absent (only the canvas clips them).
  public func presentedClips() -> [String: Rect] {
    var clips: [String: Rect] = [:]
    func walk(_ group: Group, _ inherited: Point, _ clip: Rect?, _ outer: Rect?) {
      let view = self.view(of: group, inside: outer)
      var clip = clip
      if let viewport = group.viewport {
        let shown = Rect(
          x: viewport.x - inherited.x, y: viewport.y - inherited.y, width: viewport.width,
          height: viewport.height)
        clip = clip.map { $0.intersection(shown) } ?? shown
      }
      var total = inherited
      if let own = scroll[group.id] {
        total.x += own.x
        total.y += own.y
      }
      if let clip { for item in drawnMembers(of: group, in: view) { clips[item] = clip } }
      for child in group.groups { walk(child, total, clip, view) }
    }
    for group in layout.groups { walk(group, .zero, nil, nil) }
    return clips
  }
}

/// Draws applied states. Called only from the screen's loop thread.
public protocol Renderer: AnyObject {
  /// Prepares the output (e.g. enters the alternate screen). Called once before the first frame.
  func start() throws
  /// Draws a frame. Called after every applied snapshot or delta.
  func render(_ frame: ScreenFrame) throws
  /// A file descriptor the loop polls for readability, if the renderer needs waking
  /// (for example on terminal resize); nil if it never does.
  var wakeFileDescriptor: Int32? { get }
  /// Called by the loop when `wakeFileDescriptor` is readable.
  func handleWake() throws
  /// Restores the output (e.g. leaves the alternate screen). Safe to call more than once.
  func stop()
}

/// The pairing PIN a screen shows while a remote pairs (docs/security.md, "Keys, the allow-list and pairing").
public struct PairingOverlay: Sendable, Equatable {
  /// The PIN to type into the remote.
  public var pin: String
  /// The name the remote gave.
  public var remoteName: String
  /// The first 4 bytes of the broker's public key in hex, to compare with the remote.
  public var brokerFingerprint: String

  /// Creates an overlay.
  public init(pin: String, remoteName: String, brokerFingerprint: String) {
    self.pin = pin
    self.remoteName = remoteName
    self.brokerFingerprint = brokerFingerprint
  }
}

/// Renderers that show the pairing PIN implement this; others ignore pairing.
public protocol PairingDisplay: AnyObject {
  /// Shows (or, with nil, hides) the pairing PIN over whatever is drawn.
  func showPairing(_ overlay: PairingOverlay?) throws
  /// Shows (true) or removes (false) the notice that pairing is closed after too many wrong
  /// PINs, and how to open it at this screen (`tenfoot-screen pairing open`).
  func showPairingClosed(_ closed: Bool) throws
}

/// Whether the screen hears its broker: `lost` once its heartbeats stop (or its connection
/// closes), `up` again when it answers and the screen has resynced.
public enum BrokerLink: Sendable, Equatable {
  /// The broker answers.
  case up
  /// The broker has not been heard for a while: input cannot work, the state shown is stale.
  case lost
}

/// A renderer that can say the broker is gone (a banner; the last state stays, marked stale).
public protocol LinkDisplay: AnyObject {
  /// Shows (`lost`) or removes (`up`) the banner.
  func showLink(_ link: BrokerLink) throws
}
