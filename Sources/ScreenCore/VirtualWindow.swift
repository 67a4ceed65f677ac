import FocusEngine

/// What a renderer that keeps its own drawing (the web page) needs of one virtual group in one
/// frame: which of its items are in view and how far scrolling moves them.
public struct VirtualWindow: Sendable, Equatable {
  /// The virtual group's id.
  public var group: String
  /// How far the group's content is shown from its layout place: the scroll offsets of the
  /// group and of every group around it, summed (an item is drawn at its frame minus this).
  public var shift: Point
  /// The indices of the items that meet the group's viewport as scrolled, in reading order.
  public var indices: [Int]
  /// Their frames in the group's content space, in the order of `indices`: the engine's
  /// (``VirtualItems/frame(at:)``), so a renderer places per-index sizes without arithmetic
  /// of its own.
  public var frames: [Rect]
  /// The content the app supplied for items in view, by index (an index without any keeps its
  /// placeholder): at most `indices.count` entries, whatever the group holds.
  public var content: [Int: VirtualContent]

  /// Creates a window.
  public init(
    group: String, shift: Point, indices: [Int], frames: [Rect] = [],
    content: [Int: VirtualContent] = [:]
  ) {
    self.group = group
    self.shift = shift
    self.indices = indices
    self.frames = frames
    self.content = content
  }
}
