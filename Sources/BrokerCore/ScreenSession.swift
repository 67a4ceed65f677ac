import FocusEngine
import TenFootProtocol

/// One screen session: the focus state of a registered layout and its state sequence.
struct ScreenSession {
  /// The session id (the screen's `--id`).
  let id: String
  /// The engine state.
  var focus: FocusState
  /// The sequence number of the last published state (snapshot or delta).
  var seq: UInt64
  /// The remote's timing, touch and tilt state for this session.
  var remote = RemoteInterpreter()

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
