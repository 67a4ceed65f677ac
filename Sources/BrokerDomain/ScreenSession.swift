import FocusEngine

/// One screen session: the focus state of a registered layout and its state sequence.
public struct ScreenSession: Sendable, Equatable {
  /// The session id (the screen's `--id`).
  public let id: String
  /// The engine state.
  public var focus: FocusState
  /// The sequence number of the last published state (snapshot or delta).
  public var seq: UInt64
  /// Each remote's timing, touch and tilt state on this session, by the key the runtime gives each remote: two people
  /// holding arrows on one screen each get their own repeats, taps and finger.
  public internal(set) var remotes: [String: RemoteInterpreter] = [:]
  /// The remote whose input came last: its finger tilts the focused item.
  public internal(set) var activeRemote = ""
  /// What the session's screen reader said last (the edge cue's rate limit); not durable.
  public internal(set) var announcer = Announcer()
  /// At most this many remotes are remembered per session; beyond it an idle one is forgotten
  /// (a sender-name flood cannot grow the session without bound).
  public static let rememberedRemotes = 16

  /// The last pointer sample's remote clock and the broker's clock when it came (for the
  /// idle timeout).
  public internal(set) var pointerClock: PointerClock?
  /// Whether an app reacts to this screen's activations (it said so when it asked for a
  /// snapshot): activations then hold the inputs that follow until it reacts. An app that
  /// lets a hold run out is presumed gone (it detached or hangs) until it reacts or attaches
  /// again, so a departed app costs one reaction deadline, not one per activation.
  public internal(set) var hasApp = false
  /// The inputs held for the app's reaction to an activation, if any.
  public internal(set) var hold: ReactionHold?

  /// Creates a session.
  public init(id: String, focus: FocusState, seq: UInt64) {
    self.id = id
    self.focus = focus
    self.seq = seq
  }

  /// The remote whose input came last (a fresh interpreter if none has sent any).
  public var remote: RemoteInterpreter { remotes[activeRemote] ?? RemoteInterpreter() }

  /// The focused item's parallax now.
  public var parallax: Parallax? {
    let (tilt, bump) = parallaxInputs
    return Parallax.of(focus, tilt: tilt, bump: bump)
  }

  /// What the parallax reads of the active remote besides the focus: its finger's tilt and its
  /// last bump (a fresh interpreter's if none has sent input).
  var parallaxInputs: (tilt: Point, bump: Direction?) {
    guard let index = remotes.index(forKey: activeRemote) else {
      let fresh = RemoteInterpreter()
      return (fresh.tilt, fresh.bump)
    }
    return (remotes.values[index].tilt, remotes.values[index].bump)
  }

  /// ``parallaxInputs``, read where the remote lies: `Dictionary.Values`' getter copies the
  /// whole interpreter (its held-key table retained, then released) to read two fields; the
  /// mutating accessor lends it in place.
  mutating func parallaxInputsInPlace() -> (tilt: Point, bump: Direction?) {
    guard let index = remotes.index(forKey: activeRemote) else { return parallaxInputs }
    return Self.parallaxInputs(of: &remotes.values[index])
  }

  private static func parallaxInputs(of remote: inout RemoteInterpreter)
    -> (tilt: Point, bump: Direction?)
  {
    (remote.tilt, remote.bump)
  }

  /// Runs `sender`'s timed input through its own interpreter; returns the engine's effects and
  /// the focused item's parallax after it (`sender` is then the active remote).
  mutating func handle(_ input: RemoteInput, from sender: String)
    -> (effects: [FocusEffect], parallax: Parallax?)
  {
    // Mutated in place (no copy of its held-key table per input), and read while it is at
    // hand: the parallax after the input costs no second lookup.
    let (effects, parallax) = Self.run(
      input, on: &remotes[sender, default: RemoteInterpreter()], &focus)
    activeRemote = sender
    if remotes.count > Self.rememberedRemotes {
      // Forget an idle remote other than this one; if every one is busy, the oldest-named
      // busy one (deterministic) rather than growing.
      let others = remotes.keys.filter { $0 != sender }.sorted()
      if let victim = others.first(where: { remotes[$0]?.isIdle == true }) ?? others.first {
        remotes[victim] = nil
      }
    }
    return (effects, parallax)
  }

  /// Runs `input` through `remote` on `focus`; the effects, and the parallax `remote` then
  /// gives the focused item.
  private static func run(
    _ input: RemoteInput, on remote: inout RemoteInterpreter, _ focus: inout FocusState
  ) -> ([FocusEffect], Parallax?) {
    let effects = remote.handle(input, &focus)
    return (effects, Parallax.of(focus, tilt: remote.tilt, bump: remote.bump))
  }

  /// The whole state as a snapshot.
  func snapshot(epoch: UInt64, announcing announcement: Announcement? = nil) -> SessionSnapshot {
    var snapshot = SessionSnapshot(
      screen: id, epoch: epoch, seq: seq, focus: focus, parallax: parallax)
    snapshot.announcement = announcement
    return snapshot
  }

  /// Whether `record` holds this session's durable values, compared in place (most requests
  /// change none of them, so the record is built only when one did).
  func isRecorded(by record: SessionRecord?) -> Bool {
    guard let record, record.focused == focus.focused,
      record.selected.count == focus.selected.count, record.text == focus.textValues,
      focus.remembers(record.memory)
    else { return false }
    return record.selected.allSatisfy(focus.selected.contains)
  }

  /// The values a store keeps for this session.
  var record: SessionRecord {
    SessionRecord(
      screen: id, focused: focus.focused, selected: focus.selected.sorted(),
      text: focus.textValues, memory: focus.memory)
  }
}

/// A pointer sample's time on both clocks: the remote's (the engine's clock for the pointer)
/// and the broker's.
public struct PointerClock: Sendable, Equatable {
  /// The remote's clock at the sample, nanoseconds.
  public var remote: UInt64
  /// The broker's clock when it arrived.
  public var broker: BrokerInstant
}
