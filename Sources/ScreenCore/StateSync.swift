import FocusEngine
import TenFootProtocol

/// The screen side of the zguide "Clone" pattern, as a pure state machine.
///
/// The screen subscribes first, then asks for a snapshot; deltas that arrive before the
/// snapshot are buffered, those at or below the snapshot's sequence are dropped, the rest are
/// applied in order. A gap in sequence numbers or a new broker epoch makes it ask again.
public struct StateSync: Sendable {
  /// What the screen loop should do after feeding a message in.
  public enum Action: Sendable, Equatable {
    /// Nothing new to show.
    case none
    /// Draw this frame.
    case render(ScreenFrame)
    /// State was lost (gap or new epoch): request a snapshot; `reason` is for logs.
    case resync(reason: String)
  }

  /// The screen session id.
  public let screen: String
  /// The frame shown now, nil until the first snapshot.
  public private(set) var frame: ScreenFrame?
  /// Deltas received while waiting for a snapshot, oldest first (bounded), in the form they
  /// came in.
  private var pending: [Delta] = []
  /// Whether a snapshot has been asked for and not yet applied.
  public private(set) var awaitingSnapshot = true
  /// The most deltas buffered while waiting; older ones are dropped (the snapshot covers them).
  public static let pendingLimit = 10_000

  /// Starts waiting for the first snapshot of `screen`.
  public init(screen: String) { self.screen = screen }

  /// Marks that a snapshot was requested (after `resync`).
  public mutating func snapshotRequested() {
    awaitingSnapshot = true
  }

  /// Applies a snapshot (the reply to a request, or one published after a layout change).
  public mutating func apply(snapshot: Tenfoot_V1_ScreenState) -> Action {
    if var frame, !awaitingSnapshot, snapshot.epoch == frame.epoch, snapshot.seq <= frame.seq {
      // The published copy of the snapshot a reply already showed (a screen's own registration:
      // its reply often comes first) brings one new thing, what to announce.
      guard snapshot.seq == frame.seq, frame.announcement == nil, snapshot.hasAnnouncement,
        let announcement = Announcement(wire: snapshot.announcement)
      else { return .none }  // An older snapshot than what is shown.
      frame.announcement = announcement
      frame.events = []
      self.frame = frame
      return .render(frame)
    }
    var states: [String: FocusDisplayState] = [:]
    states.reserveCapacity(snapshot.states.count)
    for item in snapshot.states {
      if let state = FocusDisplayState(wire: item.state) { states[item.id] = state }
    }
    var next = ScreenFrame(
      screen: screen, epoch: snapshot.epoch, seq: snapshot.seq,
      layout: Layout(wire: snapshot.layout),
      focused: snapshot.hasFocused ? snapshot.focused : nil, states: states)
    next.parallax = snapshot.hasParallax ? Parallax(wire: snapshot.parallax) : nil
    next.text = snapshot.text
    next.editingText = snapshot.editingText
    for offset in snapshot.scroll { next.scroll[offset.group] = Point(x: offset.x, y: offset.y) }
    next.announcement = snapshot.hasAnnouncement ? Announcement(wire: snapshot.announcement) : nil
    next.pointer = snapshot.hasPointer ? PointerPresentation(wire: snapshot.pointer) : nil
    // A snapshot carries no effects but the virtual items its app is asked for.
    next.events = snapshot.itemsInView.compactMap { wanted in
      wanted.range.map { .itemsInView(group: wanted.group, range: $0) }
    }
    let buffered = pending
    pending.removeAll()
    awaitingSnapshot = false
    for delta in buffered where delta.epoch == next.epoch && delta.seq > next.seq {
      guard delta.seq == next.seq + 1 else {
        frame = next
        return resync("gap after snapshot: have \(next.seq), next buffered is \(delta.seq)")
      }
      Self.merge(delta, into: &next)
    }
    frame = next
    return .render(next)
  }

  /// Applies a published delta.
  public mutating func apply(delta: Tenfoot_V1_StateDelta) -> Action {
    apply(.message(delta))
  }

  /// Applies a published delta read straight from its bytes: the same as applying the
  /// `StateDelta` SwiftProtobuf decodes from them, without making it (see `DeltaFrame`).
  public mutating func apply(delta: DeltaFrame) -> Action {
    apply(.frame(delta))
  }

  @inline(__always)
  private mutating func apply(_ delta: Delta) -> Action {
    guard !awaitingSnapshot, let epoch = frame?.epoch, let seq = frame?.seq else {
      if pending.count >= Self.pendingLimit { pending.removeFirst() }
      pending.append(delta)
      return .none
    }
    if delta.epoch != epoch {
      pending = [delta]
      return resync("broker epoch changed from \(epoch) to \(delta.epoch)")
    }
    if delta.seq <= seq { return .none }  // Already covered by the snapshot.
    guard delta.seq == seq + 1 else {
      pending = [delta]
      return resync("sequence gap: have \(seq), received \(delta.seq)")
    }
    // Take the frame out, so merging mutates the item states in place instead of copying
    // every item's state (copy-on-write) for each delta, and the frame is not copied whole.
    guard var current = frame.take() else { return .none }
    Self.merge(delta, into: &current)
    frame = current
    return .render(current)
  }

  /// Notes a broker heartbeat; a new epoch means the broker restarted and state is gone.
  public mutating func apply(heartbeatEpoch epoch: UInt64) -> Action {
    guard let frame, !awaitingSnapshot, frame.epoch != epoch else { return .none }
    return resync("broker restarted (epoch \(frame.epoch) → \(epoch))")
  }

  private mutating func resync(_ reason: String) -> Action {
    awaitingSnapshot = true
    return .resync(reason: reason)
  }

  private static func merge(_ delta: Delta, into frame: inout ScreenFrame) {
    switch delta {
    case .message(let delta): merge(delta, into: &frame)
    case .frame(let delta): merge(delta, into: &frame)
    }
  }

  /// `merge` of the generated message, over engine values made as it goes.
  private static func merge(_ delta: DeltaFrame, into frame: inout ScreenFrame) {
    frame.seq = delta.seq
    frame.focused = delta.focused
    for (id, state) in delta.changed { frame.states[id] = state }
    frame.eventLine = .events(delta.events)
    frame.parallax = delta.parallax
    if !delta.text.isEmpty { frame.text.merge(delta.text) { $1 } }
    frame.editingText = delta.editingText
    frame.events = delta.events
    frame.announcement = delta.announcement
    for (group, offset) in delta.scroll { frame.scroll[group] = offset }
  }

  private static func merge(_ delta: Tenfoot_V1_StateDelta, into frame: inout ScreenFrame) {
    frame.seq = delta.seq
    frame.focused = delta.hasFocused ? delta.focused : nil
    for item in delta.changed {
      if let state = FocusDisplayState(wire: item.state) { frame.states[item.id] = state }
    }
    frame.eventLine = .effects(delta.effects)
    frame.parallax = delta.hasParallax ? Parallax(wire: delta.parallax) : nil
    frame.text.merge(delta.text) { $1 }
    frame.editingText = delta.editingText
    frame.events = delta.effects.compactMap(FocusEffect.init(wire:))
    frame.announcement = delta.hasAnnouncement ? Announcement(wire: delta.announcement) : nil
    if delta.hasPointer { frame.pointer = PointerPresentation(wire: delta.pointer) }
    for offset in delta.scroll { frame.scroll[offset.group] = Point(x: offset.x, y: offset.y) }
  }

  /// A delta as it came in: the generated message (the generic path), or read straight from
  /// its bytes.
  private enum Delta: Sendable {
    case message(Tenfoot_V1_StateDelta)
    case frame(DeltaFrame)

    var epoch: UInt64 {
      switch self {
      case .message(let delta): delta.epoch
      case .frame(let delta): delta.epoch
      }
    }

    var seq: UInt64 {
      switch self {
      case .message(let delta): delta.seq
      case .frame(let delta): delta.seq
      }
    }
  }
}
