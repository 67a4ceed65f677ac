"""Connection strings and endpoints: the same rules and messages as the Swift side's
ConnectionString and Endpoints (Tests/TenFootProtocolTests)."""

import os
import tempfile
import unittest

from zmq.utils import z85

import tenfoot
from tenfoot.connection import base64url_encode, pairing_for_control, runtime_directory

KEY = bytes(range(32))
KEY_TEXT = base64url_encode(KEY)


class ConnectionStrings(unittest.TestCase):
    def test_one_broker_takes_the_next_two_ports(self):
        endpoints = tenfoot.parse_connection_string(f"tenfoot://{KEY_TEXT}@tv.local:7700")
        self.assertEqual(endpoints.control, ["tcp://tv.local:7700"])
        self.assertEqual(endpoints.state, ["tcp://tv.local:7701"])
        self.assertEqual(endpoints.pairing, "tcp://tv.local:7702")
        self.assertEqual(endpoints.broker_key, z85.encode(KEY).decode())
        self.assertTrue(endpoints.uses_tcp)
        self.assertFalse(endpoints.is_zone)

    def test_a_zone_lists_every_broker_with_explicit_ports(self):
        endpoints = tenfoot.parse_connection_string(
            f"tenfoot://{KEY_TEXT}@a:7700,b:8800/9001/9002")
        self.assertEqual(endpoints.control, ["tcp://a:7700", "tcp://b:8800"])
        self.assertEqual(endpoints.state, ["tcp://a:9001", "tcp://b:9001"])
        self.assertEqual(endpoints.pairing, "tcp://a:9002")
        self.assertTrue(endpoints.is_zone)
        self.assertEqual(endpoints.request_timeout, 0.4)
        self.assertEqual(endpoints.heartbeat, (150, 400))

    def test_bad_strings_get_a_typed_error_that_says_what_is_wrong(self):
        cases = {
            "http://x:1": "starts with tenfoot://",
            f"tenfoot://{KEY_TEXT}": "public key in base64url",
            "tenfoot://short@h:1": "public key in base64url",
            f"tenfoot://{KEY_TEXT[:-1]}+@h:1": "public key in base64url",
            f"tenfoot://{KEY_TEXT}@host": "is not HOST:PORT",
            f"tenfoot://{KEY_TEXT}@host:0": "is not HOST:PORT",
            f"tenfoot://{KEY_TEXT}@host:70000": "is not HOST:PORT",
            f"tenfoot://{KEY_TEXT}@:7700": "is not HOST:PORT",
            f"tenfoot://{KEY_TEXT}@h:7700/1": "/STATE_PORT/PAIRING_PORT",
            f"tenfoot://{KEY_TEXT}@h:7700/1/x": "/STATE_PORT/PAIRING_PORT",
        }
        for text, message in cases.items():
            with self.subTest(text=text):
                with self.assertRaises(tenfoot.ConnectionStringError) as raised:
                    tenfoot.parse_connection_string(text)
                self.assertIn(message, str(raised.exception))
                self.assertIsInstance(raised.exception, ValueError)


class ExplicitEndpoints(unittest.TestCase):
    def test_lists_and_the_implied_pairing_endpoint(self):
        endpoints = tenfoot.Endpoints.of("tcp://a:7700, tcp://b:7700", "tcp://a:7701,tcp://b:7701")
        self.assertEqual(endpoints.control, ["tcp://a:7700", "tcp://b:7700"])
        self.assertEqual(endpoints.pairing, "tcp://a:7702")
        self.assertEqual(pairing_for_control("ipc:///run/t/control"), "ipc:///run/t/pairing")

    def test_an_endpoint_that_is_not_one_is_refused(self):
        for control in ("", "udp://a:1", "tcp://a", "tcp://a:99999", "ipc://"):
            with self.subTest(control=control):
                with self.assertRaises(tenfoot.ConnectionStringError):
                    tenfoot.Endpoints.of(control, "tcp://a:1")

    def test_the_local_default_is_the_private_runtime_directory(self):
        with tempfile.TemporaryDirectory() as scratch:
            run = os.path.join(scratch, "run")
            endpoints = tenfoot.Endpoints.local({"TENFOOT_RUNTIME_DIR": run})
            self.assertEqual(endpoints.control, [f"ipc://{run}/control"])
            self.assertEqual(endpoints.state, [f"ipc://{run}/state"])
            self.assertEqual(os.stat(run).st_mode & 0o777, 0o700)
            os.chmod(run, 0o755)
            with self.assertRaises(tenfoot.ConnectionStringError) as raised:
                runtime_directory({"TENFOOT_RUNTIME_DIR": run})
            self.assertIn("chmod 700", str(raised.exception))

    def test_resolve_refuses_a_bare_endpoint_with_the_way_to_give_one(self):
        with self.assertRaises(tenfoot.ConnectionStringError) as raised:
            tenfoot.resolve("tcp://a:7700")
        self.assertIn("Endpoints.of", str(raised.exception))


if __name__ == "__main__":
    unittest.main()
