"""Client keys and pins in the state directory, in the Swift programs' file formats."""

import json
import os
import tempfile
import unittest

import tenfoot
from tenfoot.keys import state_directory


class Keys(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.TemporaryDirectory()
        self.directory = state_directory("remote", os.path.join(self.scratch.name, "remote"))

    def tearDown(self):
        self.scratch.cleanup()

    def test_a_key_pair_is_created_private_and_read_back(self):
        trust = tenfoot.ClientTrust(self.directory)
        path = os.path.join(self.directory, "key.json")
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o600)
        with open(path) as handle:
            stored = json.load(handle)
        self.assertEqual(stored, {"version": 1, "publicKey": trust.keys.public_key,
                                  "secretKey": trust.keys.secret_key})
        self.assertEqual(tenfoot.ClientTrust(self.directory).keys, trust.keys)

    def test_a_key_file_others_can_read_is_refused(self):
        tenfoot.ClientTrust(self.directory)
        os.chmod(os.path.join(self.directory, "key.json"), 0o644)
        with self.assertRaises(tenfoot.KeyFileError) as raised:
            tenfoot.ClientTrust(self.directory)
        self.assertIn("chmod 600", str(raised.exception))

    def test_a_key_file_in_another_format_is_refused(self):
        path = os.path.join(self.directory, "key.json")
        for text in ('{"version": 2}', '{"version": 1, "publicKey": "x", "secretKey": "y"}',
                     "not json"):
            with open(path, "w") as handle:
                handle.write(text)
            os.chmod(path, 0o600)
            with self.subTest(text=text), self.assertRaises(tenfoot.KeyFileError):
                tenfoot.ClientTrust(self.directory)

    def test_a_pinned_key_is_used_and_a_different_one_refused(self):
        trust = tenfoot.ClientTrust(self.directory)
        broker = tenfoot.KeyPair.generate().public_key
        with self.assertRaises(tenfoot.NoBrokerKey):
            trust.curve("tcp://tv:7700", None)
        trust.pin(broker, "tcp://tv:7700")
        self.assertEqual(trust.curve("tcp://tv:7700", None).broker_key, broker)
        with open(trust.brokers_path) as handle:
            self.assertEqual(json.load(handle), {"version": 1,
                                                 "brokers": {"tcp://tv:7700": broker}})
        with self.assertRaises(tenfoot.KeyFileError):
            trust.pin(tenfoot.KeyPair.generate().public_key, "tcp://tv:7700")

    def test_a_state_directory_open_to_others_is_refused(self):
        os.chmod(self.directory, 0o755)
        with self.assertRaises(tenfoot.KeyFileError):
            state_directory("remote", self.directory)


if __name__ == "__main__":
    unittest.main()
