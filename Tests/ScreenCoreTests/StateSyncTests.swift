import FocusEngine
import ScreenCore
import TenFootProtocol
import TestSupport
import Testing

@Suite("StateSync: the Clone pattern on the screen side")
struct StateSyncTests {
  func snapshot(seq: UInt64, epoch: UInt64 = 1, focused: String = "r0c0") -> Tenfoot_V1_ScreenState
  {
    var state = Tenfoot_V1_ScreenState()
    state.screenID = "main"
    state.epoch = epoch
    state.seq = seq
    state.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 3))
    state.focused = focused
    state.states = ["r0c0", "r0c1", "r0c2"].map { id in
      .with {
        $0.id = id
        $0.state = id == focused ? .focused : .unfocused
      }
    }
    return state
  }

  func delta(seq: UInt64, epoch: UInt64 = 1, focused: String, from previous: String)
    -> Tenfoot_V1_StateDelta
  {
    var delta = Tenfoot_V1_StateDelta()
    delta.screenID = "main"
    delta.epoch = epoch
    delta.seq = seq
    delta.focused = focused
    delta.changed = [
      .with {
        $0.id = previous
        $0.state = .unfocused
      },
      .with {
        $0.id = focused
        $0.state = .focused
      },
    ]
    return delta
  }

  @Test("deltas before the snapshot are buffered; old ones dropped, newer ones applied")
  func bufferedDeltas() {
    var sync = StateSync(screen: "main")
    #expect(sync.apply(delta: delta(seq: 5, focused: "r0c1", from: "r0c0")) == .none)
    #expect(sync.apply(delta: delta(seq: 6, focused: "r0c2", from: "r0c1")) == .none)
    guard case .render(let frame) = sync.apply(snapshot: snapshot(seq: 5, focused: "r0c1")) else {
      Issue.record("the snapshot was not rendered")
      return
    }
    #expect(frame.seq == 6)
    #expect(frame.focused == "r0c2")
    #expect(frame.states == ["r0c0": .unfocused, "r0c1": .unfocused, "r0c2": .focused])
  }

  @Test("the published copy of a snapshot already shown renders only its announcement, once")
  func publishedSnapshotAnnouncement() {
    var sync = StateSync(screen: "main")
    guard case .render(let asked) = sync.apply(snapshot: snapshot(seq: 1)) else {
      Issue.record("the reply was not rendered")
      return
    }
    #expect(asked.announcement == nil)
    var published = snapshot(seq: 1)
    published.announcement = Tenfoot_V1_Announcement(
      Announcement(parts: [AnnouncementPart(.label, "Row 0 Col 0")], interrupt: true))
    guard case .render(let again) = sync.apply(snapshot: published) else {
      Issue.record("the announcement was not rendered")
      return
    }
    #expect(again.announcement?.text == "Row 0 Col 0" && again.seq == 1)
    #expect(sync.apply(snapshot: published) == .none, "said once")
    #expect(sync.apply(snapshot: snapshot(seq: 1)) == .none)
  }

  @Test("a gap asks for a resync and nothing is applied until the snapshot")
  func gap() {
    var sync = StateSync(screen: "main")
    _ = sync.apply(snapshot: snapshot(seq: 1))
    guard case .resync(let reason) = sync.apply(delta: delta(seq: 3, focused: "r0c2", from: "r0c0"))
    else {
      Issue.record("a gap did not resync")
      return
    }
    #expect(reason.contains("gap"))
    #expect(sync.awaitingSnapshot)
    #expect(sync.frame?.seq == 1)
    guard case .render(let frame) = sync.apply(snapshot: snapshot(seq: 3, focused: "r0c2")) else {
      Issue.record("the resync snapshot was not rendered")
      return
    }
    #expect(frame.seq == 3)
    #expect(!sync.awaitingSnapshot)
  }

  @Test("duplicates are ignored, a new epoch resyncs, heartbeats of the same epoch do nothing")
  func epochs() {
    var sync = StateSync(screen: "main")
    _ = sync.apply(snapshot: snapshot(seq: 2))
    #expect(sync.apply(delta: delta(seq: 2, focused: "r0c1", from: "r0c0")) == .none)
    #expect(sync.apply(heartbeatEpoch: 1) == .none)
    guard case .resync = sync.apply(heartbeatEpoch: 9) else {
      Issue.record("a new epoch did not resync")
      return
    }
    guard case .render(let frame) = sync.apply(snapshot: snapshot(seq: 1, epoch: 9)) else {
      Issue.record("the new epoch's snapshot was not rendered")
      return
    }
    #expect(frame.epoch == 9)
    #expect(frame.seq == 1)
  }
}

@Suite("Screen heartbeats follow the broker's grace period")
struct ScreenBeatTests {
  @Test("four beats per grace period, at most one a second, at least every 50 ms")
  func interval() {
    #expect(ScreenClient.beatInterval(grace: .seconds(1)) == .milliseconds(250))
    #expect(ScreenClient.beatInterval(grace: .seconds(30)) == .seconds(1))
    #expect(ScreenClient.beatInterval(grace: .milliseconds(100)) == .milliseconds(50))
  }
}
