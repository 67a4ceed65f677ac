#!/usr/bin/env python3
"""cpace.py against the test vectors of draft-irtf-cfrg-cpace-21, appendices A.1-A.3 (string
functions) and B.3 (ristretto255 with SHA-512), the same vectors as
Tests/TenFootSecurityTests/CPaceTests.swift; then TenFoot pairing rounds, and one fixed round
whose values the Swift test checks too (so both implementations agree byte for byte).

Run: python -m unittest discover -s python/tests   (with the tenfoot package installed)
"""

import unittest

from tenfoot import cpace


def unhex(text):
    return bytes.fromhex("".join(text.split()))


# B.3 inputs.
PRS = b"Password"
CI = unhex("0b415f696e69746961746f720b425f726573706f6e646572")
SID = unhex("7e4b4791d6a8ef019b936c79fb7f2c57")
YA = unhex("da3d23700a9e5699258aef94dc060dfda5ebb61f02a5ea77fad53f4ff0976d08")
YB = unhex("d2316b454718c35362d83d69df6320f38578ed5984651435e2949762d900b80d")
AD_A = b"ADa"
AD_B = b"ADb"


class StringFunctions(unittest.TestCase):
    def test_prepend_len_and_lv_cat_a1(self):
        self.assertEqual(cpace.prepend_len(b""), unhex("00"))
        self.assertEqual(cpace.prepend_len(b"1234"), unhex("0431323334"))
        block = bytes(range(127))
        self.assertEqual(cpace.prepend_len(block), b"\x7f" + block)
        block = bytes(range(128))
        self.assertEqual(cpace.prepend_len(block), b"\x80\x01" + block)
        self.assertEqual(cpace.lv_cat(b"1234", b"5", b"", b"678"),
                         unhex("043132333401350003363738"))

    def test_transcript_ir_a35(self):
        self.assertEqual(cpace.transcript_ir(b"123", b"PartyA", b"234", b"PartyB"),
                         unhex("03313233065061727479410332333406506172747942"))


class Ristretto255Vectors(unittest.TestCase):
    GENERATOR = unhex("222b6b195fe84b1652badb6f6a3ae3d24341e7306967f0b8115b40d5698c7e56")
    SHARE_A = unhex("d6bac480f2c386c394efc7c47adb9925dcd2630b64f240c50f8d0eec482b9157")
    SHARE_B = unhex("3ea7e0b19560d7c0b0f5734f63b955286dfa8232b5ebe63324e2d9e7433f7258")
    K = unhex("80b69a8a76457ab6a4d7f887a4bf6b55a2f80ac19c333f917a05fc9887c8b40f")
    ISK = unhex("""
        b69effbf61b51d56401c0f65601abe428de8206feaaf0e32198896dcae7b35cd2b38950a39dfd5d4a791646
        14c2984f7daa460b588c1e80c3fa2068af7900447
        """)

    def test_generator_shares_k_isk_b3(self):
        generator = cpace.calculate_generator(PRS, CI, SID)
        self.assertEqual(generator, self.GENERATOR)
        share_a = cpace.scalar_mult_vfy(YA, generator)
        share_b = cpace.scalar_mult_vfy(YB, generator)
        self.assertEqual(share_a, self.SHARE_A)
        self.assertEqual(share_b, self.SHARE_B)
        self.assertEqual(cpace.scalar_mult_vfy(YA, share_b), self.K)
        self.assertEqual(cpace.scalar_mult_vfy(YB, share_a), self.K)
        transcript = cpace.transcript_ir(share_a, AD_A, share_b, AD_B)
        self.assertEqual(cpace.intermediate_key(SID, self.K, transcript), self.ISK)

    def test_parties_b3(self):
        a = cpace.Party(cpace.Party.INITIATOR, PRS, CI, SID, AD_A, YA)
        b = cpace.Party(cpace.Party.RESPONDER, PRS, CI, SID, AD_B, YB)
        self.assertEqual(a.share, self.SHARE_A)
        self.assertEqual(b.share, self.SHARE_B)
        self.assertEqual(a.finish(b.share, AD_B).isk, self.ISK)
        self.assertEqual(b.finish(a.share, AD_A).isk, self.ISK)

    def test_scalar_mult_vfy_b310_b311(self):
        s = unhex("7cd0e075fa7955ba52c02759a6c90dbbfc10e6d40aea8d283e407d88cf538a05")
        x = unhex("2c3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c")
        self.assertEqual(cpace.scalar_mult_vfy(s, x),
                         unhex("7c13645fe790a468f62c39beb7388e541d8405d1ade69d1778c5fe3e7f6b600e"))
        invalid = unhex("2b3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c")
        self.assertIsNone(cpace.scalar_mult_vfy(s, invalid))
        self.assertIsNone(cpace.scalar_mult_vfy(s, bytes(32)))
        self.assertIsNone(cpace.scalar_mult_vfy(s, b"short"))
        party = cpace.Party(cpace.Party.INITIATOR, PRS, CI, SID, AD_A)
        self.assertIsNone(party.finish(invalid, AD_B))
        self.assertIsNone(party.finish(bytes(32), AD_B))


def run(pin_a, pin_b):
    a = cpace.Party(cpace.Party.INITIATOR, pin_a, CI, SID, AD_A)
    b = cpace.Party(cpace.Party.RESPONDER, pin_b, CI, SID, AD_B)
    return a.finish(b.share, AD_B), b.finish(a.share, AD_A)


class FreshScalars(unittest.TestCase):
    def test_same_pin_agrees_and_tags_cross_check(self):
        a, b = run(b"0427", b"0427")
        self.assertEqual(a.isk, b.isk)
        self.assertEqual(a.own_tag, b.peer_tag)
        self.assertEqual(b.own_tag, a.peer_tag)
        self.assertNotEqual(a.own_tag, a.peer_tag)

    def test_different_pins_disagree(self):
        a, b = run(b"0427", b"0428")
        self.assertNotEqual(a.isk, b.isk)
        self.assertNotEqual(a.own_tag, b.peer_tag)
        self.assertNotEqual(b.own_tag, a.peer_tag)


# One TenFoot pairing round with fixed inputs; Tests/TenFootSecurityTests/CPaceTests.swift checks
# the same values with the Swift implementation.
PAIR_PIN = "0427"
PAIR_BROKER_KEY = bytes(range(1, 33))
PAIR_REMOTE_KEY = bytes(range(33, 65))
PAIR_BROKER_NONCE = bytes([0xB0]) * 32
PAIR_REMOTE_NONCE = bytes([0xC0]) * 32
PAIR_YA = unhex("be30bb02c7b934d99962e4511858913c818a7e540ca564871c626fa16795dc62")
PAIR_YB = unhex("aa317485d23d74a1a54f5ef9092ce4ca496b5746cd3be792de4634a65d81692e")
PAIR_ISK = unhex("""
    73a5c025cb06d0c0c798f00a386f58fce5089cbcd63b71a6b10716aa5b0e5cc4
    0f983351e319c335bf7cce7c58f13a4b8dd0ee0ce631d24d2f014adc50a0e372
    """)
PAIR_TA = unhex("""
    4c905f458392d22a7a5c9fe58ad015f97eca5dc4cef96e1d61f958bab3d78a24
    fc8945e035be73adcf00e44c7770ef55c701b589f8dc0a31abf89807b9c58ad9
    """)
PAIR_TB = unhex("""
    1445ac1d2c202de6e4d67a3aa8390a6906dfddd5257f4047fbaa7894b3b67137
    4c6b068b6a86eb4c0b7dd212ca067ce94bcd1c07082127df83267c782214ac59
    """)


class TenFootPairing(unittest.TestCase):
    def round(self, broker_pin, remote_pin, broker_key=PAIR_BROKER_KEY,
              remote_key_at_broker=PAIR_REMOTE_KEY):
        broker = cpace.pairing_broker(broker_pin, broker_key, remote_key_at_broker,
                                      PAIR_BROKER_NONCE, PAIR_REMOTE_NONCE, YA)
        remote = cpace.pairing_remote(remote_pin, PAIR_BROKER_KEY, PAIR_REMOTE_KEY,
                                      PAIR_BROKER_NONCE, PAIR_REMOTE_NONCE, YB)
        return (broker.finish(remote.share, cpace.REMOTE_DATA),
                remote.finish(broker.share, cpace.BROKER_DATA), broker, remote)

    def test_channel_identifier(self):
        self.assertEqual(cpace.pairing_channel(b"\x01" * 32, b"\x02" * 32),
                         b"\x0ftenfoot-pair-v2" + b"\x20" + b"\x01" * 32 + b"\x20" + b"\x02" * 32)

    def test_fixed_round_shared_with_swift(self):
        broker, remote, broker_party, remote_party = self.round(PAIR_PIN, PAIR_PIN)
        self.assertEqual((broker_party.share, remote_party.share), (PAIR_YA, PAIR_YB))
        self.assertEqual((broker.isk, remote.isk), (PAIR_ISK, PAIR_ISK))
        self.assertEqual((broker.own_tag, remote.peer_tag), (PAIR_TA, PAIR_TA))
        self.assertEqual((remote.own_tag, broker.peer_tag), (PAIR_TB, PAIR_TB))
        self.assertEqual(len(remote.own_tag), cpace.TAG_BYTES)

    def test_wrong_pin_fails_confirmation(self):
        broker, remote, _, _ = self.round(PAIR_PIN, "0428")
        self.assertFalse(cpace.equal_in_constant_time(remote.own_tag, broker.peer_tag))
        self.assertFalse(cpace.equal_in_constant_time(broker.own_tag, remote.peer_tag))

    def test_other_keys_fail_confirmation(self):
        # A broker that saw another remote key (a substituted key) or is another broker.
        for broker_key, remote_key in ((PAIR_BROKER_KEY, bytes(32)), (bytes(32), PAIR_REMOTE_KEY)):
            broker, remote, _, _ = self.round(PAIR_PIN, PAIR_PIN, broker_key, remote_key)
            self.assertFalse(cpace.equal_in_constant_time(remote.own_tag, broker.peer_tag))


if __name__ == "__main__":
    unittest.main()
