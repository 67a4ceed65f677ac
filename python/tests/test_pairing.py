#!/usr/bin/env python3
"""The Python remote's PIN dialogue (`tenfoot.Pairing.pair`) against a broker side played
in memory with tenfoot.cpace: wrong then right PIN (with the back-off waited), lines that are not a
PIN, a broker whose confirmation does not verify, a broker key other than the expected one, and
input that ends. Pairing with the real Swift broker is Tests/EndToEndTests/PythonInteropTests.

Run: python -m unittest discover -s python/tests   (with the tenfoot package installed)
"""

import os
import unittest

from zmq.utils import z85

import tenfoot
from tenfoot import cpace
from tenfoot import pb as PB
BROKER_KEY = bytes(range(1, 33))
PIN = "0427"


class FakeBroker:
    """The broker's pairing rules, reduced: a round per attempt, 1 s back-off doubling, its
    confirmation Ta on success (or a wrong one when `forge_proof`)."""

    def __init__(self, forge_proof=False, broker_key=BROKER_KEY):
        self.forge_proof = forge_proof
        self.broker_key = broker_key
        self.party = None
        self.failures = 0
        self.requests = []

    def call(self, expected, **body):
        (kind, message), = body.items()
        self.requests.append(kind)
        if kind == "pair_request":
            nonce = os.urandom(32)
            self.party = cpace.pairing_broker(PIN, self.broker_key, message.public_key, nonce,
                                              message.nonce)
            return PB.PairChallenge(nonce=nonce, pin_digits=4, expires_in_ms=120_000,
                                    broker_key=self.broker_key, share=self.party.share)
        if kind == "pair_proof":
            keys = self.party.finish(message.share, cpace.REMOTE_DATA)
            self.party = None
            if keys is None or not cpace.equal_in_constant_time(message.proof, keys.peer_tag):
                self.failures += 1
                raise tenfoot.BrokerError.from_wire(PB.Error(
                    code=PB.ERROR_CODE_PAIRING_FAILED, message="wrong PIN",
                    retry_after_ms=1000 << (self.failures - 1)))
            proof = bytes(64) if self.forge_proof else keys.own_tag
            return PB.Paired(peer_id="cafe0001", broker_proof=proof)
        raise AssertionError(f"unexpected {kind}")

    def close(self):
        pass


def pairing_with(broker):
    remote_key = z85.encode(bytes(range(33, 65))).decode()
    return tenfoot.Pairing(None, None, remote_key, "python", control=broker)


def dialogue(pairing, lines, **options):
    said, waited = [], []
    feed = iter(lines)
    result = pairing.pair(lambda: next(feed, None), said.append, waited.append, **options)
    return result, said, waited


class PinDialogue(unittest.TestCase):
    def test_wrong_then_right_pin_waits_the_back_off(self):
        broker = FakeBroker()
        result, said, waited = dialogue(pairing_with(broker), ["0000", "0001", PIN])
        self.assertEqual(result, ("cafe0001", z85.encode(BROKER_KEY).decode()))
        self.assertEqual(waited, [1.0, 2.0])
        self.assertEqual(said.count("wrong PIN"), 2)
        # One round per attempt: begin, then a next round before each later attempt.
        self.assertEqual(broker.requests, ["pair_request", "pair_proof"] * 3)

    def test_lines_that_are_not_a_pin_never_reach_the_broker(self):
        broker = FakeBroker()
        result, said, _ = dialogue(pairing_with(broker), ["12", "abcd", "٠٤٢٧", f"  {PIN} "])
        self.assertEqual(result[0], "cafe0001")
        self.assertEqual(said.count("the PIN is 4 digits: try again"), 3)
        self.assertEqual(broker.requests, ["pair_request", "pair_proof"])

    def test_a_broker_whose_confirmation_does_not_verify_is_not_trusted(self):
        with self.assertRaises(tenfoot.PairingFailure) as failure:
            dialogue(pairing_with(FakeBroker(forge_proof=True)), [PIN])
        self.assertEqual(failure.exception.kind, "broker proof invalid")

    def test_an_unexpected_broker_key_is_refused_before_any_pin(self):
        broker = FakeBroker()
        expected = z85.encode(bytes(32)).decode()
        with self.assertRaises(tenfoot.PairingFailure) as failure:
            dialogue(pairing_with(broker), [PIN], expected_broker_key=expected)
        self.assertEqual(failure.exception.kind, "broker key changed")
        self.assertEqual(broker.requests, ["pair_request"])

    def test_input_that_ends_pairs_nothing(self):
        result, _, _ = dialogue(pairing_with(FakeBroker()), ["0000"])
        self.assertIsNone(result)


if __name__ == "__main__":
    unittest.main()
