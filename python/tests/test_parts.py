"""A request larger than a part goes in parts that add up to it (docs/protocol.md, "Large
messages in parts")."""

import unittest

from tenfoot import pb
from tenfoot.control import MAX_PARTS, frames_of


class Parts(unittest.TestCase):
    def envelope(self, items):
        layout = pb.Layout(items=[pb.Item(id=f"i{n}", title="x" * 40) for n in range(items)])
        return pb.Envelope(protocol_version=1, sender="py", seq=42, sent_at_ns=5,
                           register_screen=pb.RegisterScreen(screen_id="main", layout=layout))

    def test_a_small_request_is_one_frame(self):
        envelope = self.envelope(3)
        self.assertEqual(frames_of(envelope), [envelope.SerializeToString()])

    def test_a_large_request_goes_in_parts_that_add_up_to_it(self):
        envelope = self.envelope(200)
        whole = envelope.SerializeToString()
        frames = frames_of(envelope, part_size=1000)
        self.assertEqual(len(frames), -(-len(whole) // 1000))
        data = b""
        for index, frame in enumerate(frames):
            part = pb.Envelope.FromString(frame)
            self.assertEqual((part.WhichOneof("body"), part.seq, part.sender), ("part", 42, "py"))
            self.assertEqual((part.part.index, part.part.count), (index, len(frames)))
            self.assertLessEqual(len(part.part.data), 1000)
            data += part.part.data
        self.assertEqual(data, whole)

    def test_more_than_the_most_parts_is_refused(self):
        envelope = self.envelope(200)
        size = len(envelope.SerializeToString()) // (MAX_PARTS + 1)
        with self.assertRaises(ValueError):
            frames_of(envelope, part_size=max(1, size))


if __name__ == "__main__":
    unittest.main()
