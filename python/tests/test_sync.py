"""The Clone sync machine (tenfoot.StateSync), fed messages by hand: the same cases as
ScreenCore's StateSyncTests."""

import unittest

import tenfoot
from tenfoot import pb

SCREEN = "main"


def snapshot(seq, epoch=1, focused="a"):
    return pb.ScreenState(screen_id=SCREEN, epoch=epoch, seq=seq, focused=focused,
                          states=[pb.ItemState(id="a", state=pb.FOCUS_DISPLAY_STATE_FOCUSED),
                                  pb.ItemState(id="b", state=pb.FOCUS_DISPLAY_STATE_UNFOCUSED)])


def delta(seq, focused, epoch=1, effects=()):
    other = "a" if focused == "b" else "b"
    return pb.StateDelta(screen_id=SCREEN, epoch=epoch, seq=seq, focused=focused,
                         changed=[pb.ItemState(id=focused, state=pb.FOCUS_DISPLAY_STATE_FOCUSED),
                                  pb.ItemState(id=other, state=pb.FOCUS_DISPLAY_STATE_UNFOCUSED)],
                         effects=list(effects))


class CloneSync(unittest.TestCase):
    def test_deltas_before_the_snapshot_are_buffered_then_applied_past_it(self):
        sync = tenfoot.StateSync(SCREEN)
        self.assertIsNone(sync.apply_delta(delta(5, "b")))
        self.assertIsNone(sync.apply_delta(delta(6, "a")))
        kind, frame = sync.apply_snapshot(snapshot(5))
        self.assertEqual(kind, "render")
        self.assertEqual((frame.seq, frame.focused, frame.state_name("a")), (6, "a", "focused"))
        self.assertEqual(frame.effects, [], "effects from before the snapshot are not replayed")

    def test_a_delta_at_or_below_the_seq_is_dropped_and_the_next_applied(self):
        sync = tenfoot.StateSync(SCREEN)
        sync.apply_snapshot(snapshot(3))
        self.assertIsNone(sync.apply_delta(delta(3, "b")))
        activated = pb.FocusEffect(activated="b")
        kind, frame = sync.apply_delta(delta(4, "b", effects=[activated]))
        self.assertEqual((kind, frame.seq, frame.focused), ("render", 4, "b"))
        self.assertEqual(frame.effects, [activated])
        self.assertEqual(frame.states, {"a": pb.FOCUS_DISPLAY_STATE_UNFOCUSED,
                                        "b": pb.FOCUS_DISPLAY_STATE_FOCUSED})

    def test_a_gap_asks_for_a_snapshot_and_keeps_the_delta(self):
        sync = tenfoot.StateSync(SCREEN)
        sync.apply_snapshot(snapshot(3))
        action = sync.apply_delta(delta(5, "b"))
        self.assertEqual(action, ("resync", "sequence gap: have 3, received 5"))
        self.assertTrue(sync.awaiting_snapshot)
        kind, frame = sync.apply_snapshot(snapshot(4))
        self.assertEqual((frame.seq, frame.focused), (5, "b"))

    def test_a_new_epoch_in_a_delta_or_a_heartbeat_asks_for_a_snapshot(self):
        sync = tenfoot.StateSync(SCREEN)
        sync.apply_snapshot(snapshot(9, epoch=1))
        self.assertIsNone(sync.apply_heartbeat(1))
        self.assertEqual(sync.apply_heartbeat(2)[0], "resync")
        sync.apply_snapshot(snapshot(1, epoch=2))
        self.assertEqual(sync.apply_delta(delta(2, "b", epoch=3))[0], "resync")

    def test_an_older_snapshot_than_the_one_shown_is_ignored(self):
        sync = tenfoot.StateSync(SCREEN)
        sync.apply_snapshot(snapshot(7))
        self.assertIsNone(sync.apply_snapshot(snapshot(6)))
        self.assertEqual(sync.frame.seq, 7)

    def test_another_screens_messages_are_ignored(self):
        sync = tenfoot.StateSync(SCREEN)
        other = snapshot(1)
        other.screen_id = "main2"
        self.assertIsNone(sync.apply_snapshot(other))
        self.assertIsNone(sync.frame)


if __name__ == "__main__":
    unittest.main()
