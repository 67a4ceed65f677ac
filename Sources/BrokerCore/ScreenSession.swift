import FocusEngine
import TenFootProtocol
import TenFootSecurity

/// One screen session: the focus state of a registered layout and its state sequence.
struct ScreenSession {
  /// The session id (the screen's `--id`).
  let id: String
  /// The engine state.
  var focus: FocusState
  /// The sequence number of the last published state (snapshot or delta).
  var seq: UInt64
  /// Each remote's timing, touch and tilt state on this session, by `remoteKey`: two people
  /// holding arrows on one screen each get their own repeats, taps and finger.
  var remotes: [String: RemoteInterpreter] = [:]
  /// The sender whose input came last: its finger tilts the focused item.
  var activeRemote = ""
  /// At most this many remotes are remembered per session; beyond it an idle one is forgotten
  /// (a sender-name flood cannot grow the session without bound).
  static let rememberedRemotes = 16

  /// The remote whose input came last (a fresh interpreter if none has sent any).
  var remote: RemoteInterpreter { remotes[activeRemote] ?? RemoteInterpreter() }

  /// The key a remote's interpreter is kept under: its connection's ROUTER identity in hex
  /// (libzmq's generated identities are 5 bytes, so the key is a small string that needs no
  /// allocation), or its `sender` name when there is no identity (tests).
  static func remoteKey(peer: [UInt8], sender: String) -> String {
    peer.isEmpty ? sender : Hex.encode(peer.prefix(32))
  }

  /// Runs `sender`'s timed input through its own interpreter.
  mutating func handle(_ input: RemoteInput, from sender: String) -> [FocusEffect] {
    // Mutated in place (no copy of its held-key table per input).
    let effects = remotes[sender, default: RemoteInterpreter()].handle(input, &focus)
    activeRemote = sender
    if remotes.count > Self.rememberedRemotes {
      // Forget an idle remote other than this one; if every one is busy, the oldest-named
      // busy one (deterministic) rather than growing.
      let others = remotes.keys.filter { $0 != sender }.sorted()
      if let victim = others.first(where: { remotes[$0]?.isIdle == true }) ?? others.first {
        remotes[victim] = nil
      }
    }
    return effects
  }

  /// Creates a session.
  init(id: String, focus: FocusState, seq: UInt64) {
    self.id = id
    self.focus = focus
    self.seq = seq
  }

  /// The focused item's parallax now, in wire form.
  var parallax: Tenfoot_V1_Parallax? {
    Parallax.of(focus, remote).map(Tenfoot_V1_Parallax.init)
  }

  /// The full state as a snapshot.
  func snapshot(epoch: UInt64) -> Tenfoot_V1_ScreenState {
    var state = Tenfoot_V1_ScreenState()
    state.screenID = id
    state.epoch = epoch
    state.seq = seq
    state.layout = Tenfoot_V1_Layout(focus.layout)
    if let focused = focus.focused { state.focused = focused }
    state.states = focus.layout.items.map { item in
      var itemState = Tenfoot_V1_ItemState()
      itemState.id = item.id
      itemState.state = Tenfoot_V1_FocusDisplayState(focus.displayState(of: item))
      return itemState
    }
    if let parallax { state.parallax = parallax }
    state.text = focus.textValues
    state.editingText = focus.isEditingText
    state.scroll = focus.scrollOffsets.sorted { $0.key < $1.key }
      .filter { $0.value != .zero }
      .map { Tenfoot_V1_ScrollOffset(group: $0.key, offset: $0.value) }
    return state
  }
}
