"""A layout far over the broker's message limit (256 KiB) is registered from Python in parts,
against the real broker (docs/protocol.md, "Large messages in parts")."""

import unittest

import zmq

from support import Stack
from tenfoot import Control, pb


class LargeLayoutInParts(unittest.TestCase):
    def test_a_50000_item_layout_is_registered_whole(self):
        stack = Stack()
        self.addCleanup(stack.close)
        context = zmq.Context()
        self.addCleanup(context.term)
        control = Control(context, stack.endpoints,
                          "py-screen", timeout=30)
        self.addCleanup(control.close)
        items = [pb.Item(id=f"r{n // 500}c{n % 500}", title=f"Item {n}",
                         frame=pb.Rect(x=100 + (n % 500) * 340, y=100 + (n // 500) * 240,
                                       width=300, height=200))
                 for n in range(50_000)]
        request = pb.RegisterScreen(screen_id="big", layout=pb.Layout(
            canvas=pb.Size(width=1920, height=1080), items=items, initial_focus="r0c0"))
        self.assertGreater(len(request.SerializeToString()), 4 * 256 * 1024)
        ack = control.call("ack", register_screen=request)
        self.assertEqual((ack.screen_id, ack.focused), ("big", "r0c0"))
        state = control.call("snapshot", snapshot_request=pb.SnapshotRequest(screen_id="big"))
        self.assertEqual(len(state.layout.items), 50_000)


if __name__ == "__main__":
    unittest.main()
