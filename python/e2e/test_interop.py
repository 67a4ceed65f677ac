"""The interop check (interop_test.py: a Python screen and remote, over 100 checks) against
the real broker over ipc:// and tcp://127.0.0.1, as Tests/EndToEndTests/PythonInteropTests
runs it from Swift."""

import os
import sys
import unittest

from support import Stack

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "interop_test.py")


class InteropCheck(unittest.TestCase):
    def check(self, broker_arguments):
        stack = Stack(broker_arguments)
        self.addCleanup(stack.close)
        client = stack.spawn([sys.executable, SCRIPT, "--control", stack.ready["control"],
                              "--state", stack.ready["state"], "--timeout", "10"])
        self.assertEqual(client.wait(120), 0, client.errors[-5:])
        self.assertTrue(client.output[-1].startswith("interop: PASS"), client.output[-3:])
        # The deliberate bad input was refused and logged by the broker, which kept serving.
        stack.broker.wait_for_line("a refusal in the broker's log",
                                   lambda l: "request refused" in l, stderr=True)

    def test_over_ipc(self):
        self.check([])

    def test_over_tcp(self):
        self.check(["--control", "tcp://127.0.0.1:*", "--state", "tcp://127.0.0.1:*",
                    "--insecure"])


if __name__ == "__main__":
    unittest.main()
