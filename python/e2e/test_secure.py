"""CURVE and pairing against the real broker: the menu app attaches over CURVE with its own
key bound to the screen (the `app` role) from a connection string printed by
`tenfoot-broker invite`; an app key bound to another screen is refused with the way to bind
it; a Python remote pairs by PIN (read from the screen), pins the broker key, then drives the
app over CURVE with only the endpoints; and the interop pairing script passes."""

import json
import os
import subprocess
import unittest

import tenfoot
from support import Stack, binary, wait_for_frame, EXAMPLES


def run(argv, env):
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise AssertionError(f"{argv} exited {done.returncode}: {done.stderr}")
    return done.stdout.strip()


def pin_of(line):
    try:
        pairing = json.loads(line).get("pairing")
    except (ValueError, AttributeError):
        return None
    return pairing.get("pin") if isinstance(pairing, dict) else None


class SecureStack(Stack):
    """A CURVE broker on tcp://127.0.0.1 (ports it picks) whose allow-list holds the screen."""

    def __init__(self):
        self.keys_directory = None
        super().__init__(["--control", "tcp://127.0.0.1:*", "--state", "tcp://127.0.0.1:*"])

    def start_broker(self):
        screen_key = run([binary("tenfoot-screen"), "--print-key", "--state-dir",
                          os.path.join(self.directory, "screen")], self.env)
        self.allow("tv", "screen", screen_key, [])
        return super().start_broker()

    def allow(self, name, role, key, screens):
        run([binary("tenfoot-broker"), "remotes", "add", "--data-dir", self.data, "--name", name,
             "--role", role, "--key", key] + [a for s in screens for a in ("--screen", s)],
            self.env)

    @property
    def broker_key(self):
        return run([binary("tenfoot-broker"), "key", "--data-dir", self.data], self.env)

    def invite(self):
        port = lambda name: self.ready[name].rsplit(":", 1)[1]
        return run([binary("tenfoot-broker"), "invite", "--data-dir", self.data, "--host",
                    "127.0.0.1", "--port", port("control"), "--state-port", port("state"),
                    "--pairing-port", port("pairing")], self.env)

    def secure_screen(self):
        return self.screen(["--layout", self.layout_file(), "--state-dir",
                            os.path.join(self.directory, "screen"), "--broker-key=" + self.broker_key,
                            "--control", self.ready["control"], "--state", self.ready["state"],
                            "--pairing", self.ready["pairing"]])

    def app_key(self, name):
        directory = os.path.join(self.directory, name)
        key = self.example("menu_app.py", ["--print-key", "--state-dir", directory])
        self.assert_status(key, 0)
        return directory, key.output[0]

    @staticmethod
    def assert_status(child, status):
        actual = child.wait(30)
        if actual != status:
            raise AssertionError(f"exit {actual}, expected {status}: {child.errors}")


class CurveAndPairing(unittest.TestCase):
    def setUp(self):
        self.stack = SecureStack()
        self.addCleanup(self.stack.close)
        self.screen = self.stack.secure_screen()
        self.first, _ = wait_for_frame(self.screen, "the screen over CURVE",
                                       lambda f: f["focused"] == "r0c0")

    def test_app_over_curve_and_a_remote_paired_by_pin(self):
        invite = self.stack.invite()
        self.assertEqual(tenfoot.parse_connection_string(invite).broker_key, self.stack.broker_key)
        # An app key bound to another screen is refused, with the way to bind it.
        elsewhere, key = self.stack.app_key("elsewhere")
        self.stack.allow("elsewhere", "app", key, ["other"])
        refused = self.stack.example("menu_app.py", ["--attach", "--broker", invite,
                                                     "--state-dir", elsewhere])
        self.stack.assert_status(refused, 1)
        self.assertIn("--role app --screen", " ".join(refused.errors))
        # The bound app puts its menu on the screen.
        bound, key = self.stack.app_key("menu")
        self.stack.allow("menu", "app", key, ["main"])
        logged = len(self.stack.broker.errors)
        app = self.stack.example("menu_app.py", ["--attach", "--broker", invite, "--state-dir",
                                                 bound])
        menu, _ = wait_for_frame(self.screen, "the app's menu over CURVE",
                                 lambda f: f["focused"] == "weather", self.first)
        # A remote pairs by the PIN the screen shows; its key and the broker's are stored.
        remote_dir = os.path.join(self.stack.directory, "remote")

        def read_pin():
            _, line = self.screen.wait_for_line("the PIN on the screen",
                                                lambda l: pin_of(l) is not None, menu)
            return pin_of(line)

        said = []
        paired = tenfoot.pair(self.stack.ready["pairing"], self.stack.ready["control"],
                              name="e2e", read_pin=read_pin, state_dir=remote_dir,
                              say=said.append)
        self.assertIsNotNone(paired, said)
        self.assertEqual(paired[1], self.stack.broker_key)
        listed = run([binary("tenfoot-broker"), "remotes", "list", "--data-dir",
                      self.stack.data], self.stack.env)
        self.assertIn(paired[0], listed)
        # With only the endpoints: the pinned broker key and the stored key pair.
        endpoints = tenfoot.Endpoints.of(self.stack.ready["control"], self.stack.ready["state"])
        with tenfoot.Remote(endpoints, screen="main", state_dir=remote_dir) as remote:
            self.assertEqual([remote.press(k).focused for k in ("select", "menu", "down")],
                             ["page-weather", "weather", "news"])
        wait_for_frame(self.screen, "news focused by the paired remote",
                       lambda f: f["focused"] == "news", menu)
        # Nothing the app sends is refused by its role: no refusal in the broker's log for
        # 2.5 s (more than two screen-heartbeat intervals), and the app still runs.
        with self.assertRaises(AssertionError, msg="the broker refused the app"):
            self.stack.broker.wait_for_line("a refusal", lambda l: "peer.role=app" in l,
                                            logged, stderr=True, timeout=2.5)
        self.assertIsNone(app.process.poll(), app.errors)

    def test_an_app_key_not_on_the_allow_list_is_told_so(self):
        stranger, _ = self.stack.app_key("stranger")
        refused = self.stack.example("menu_app.py", ["--attach", "--broker", self.stack.invite(),
                                                     "--state-dir", stranger])
        self.stack.assert_status(refused, 1)
        self.assertIn("refused this key in the CURVE handshake", " ".join(refused.errors))

    def test_the_interop_pairing_script_passes(self):
        script = subprocess.PIPE
        client = self.stack.spawn(
            [os.sys.executable, os.path.join(os.path.dirname(__file__), "pairing_test.py"),
             "--pairing", self.stack.ready["pairing"], "--control", self.stack.ready["control"],
             "--state", self.stack.ready["state"], "--screen", "main",
             "--broker-key=" + self.stack.broker_key, "--timeout", "10"], stdin=script)
        client.wait_for_line("the script waiting for the PIN",
                             lambda l: l == "pairing: waiting for the PIN", timeout=30)
        _, line = self.screen.wait_for_line("the PIN", lambda l: pin_of(l) is not None,
                                            self.first)
        client.process.stdin.write(pin_of(line) + "\nright\n")
        client.process.stdin.flush()
        client.wait_for_line("the paired press", lambda l: l == "python: right -> focused r0c1",
                             timeout=30)
        client.process.stdin.close()
        self.assertEqual(client.wait(30), 0, client.errors)
        self.assertTrue(client.output[-1].startswith("pairing: PASS"), client.output[-3:])


if __name__ == "__main__":
    unittest.main()
