"""CPace (draft-irtf-cfrg-cpace, revision 21), cipher suite CPACE-RISTR255-SHA512, and TenFoot's
pairing on top of it, in Python.

Written from the draft and docs/protocol.md, not from the Swift code: the group ristretto255
(RFC 9496) comes from rbcl (PyPI), which bundles libsodium and wraps its
crypto_core_ristretto255_* and crypto_scalarmult_ristretto255 (PyNaCl does not expose them);
SHA-512 and HMAC-SHA-512 come from the standard library. Only the draft's string functions
(prepend_len, lv_cat, generator_string, transcript_ir) are written here: they are a few lines of
byte concatenation with no library that provides them.

Initiator-responder mode: the broker is the initiator A (its share comes first in the
transcript), the remote the responder B. Key confirmation follows the draft's section 10.4.
"""

import hashlib
import hmac

import rbcl

DSI = b"CPaceRistretto255"
HASH_BLOCK_BYTES = 128  # SHA-512's input block size, H.s_in_bytes.
ELEMENT_BYTES = 32
SCALAR_BYTES = 32


def prepend_len(data):
    """`data` after its length in LEB128."""
    length = len(data)
    encoded = bytearray()
    while True:
        low = length & 0x7F
        length >>= 7
        encoded.append(low if length == 0 else low | 0x80)
        if length == 0:
            return bytes(encoded) + bytes(data)


def lv_cat(*parts):
    """Each part after its length, concatenated (a prefix-free encoding)."""
    return b"".join(prepend_len(part) for part in parts)


def generator_string(prs, ci, sid):
    """DSI and PRS zero-padded to fill SHA-512's first block, then CI and sid."""
    padding = max(0, HASH_BLOCK_BYTES - 1 - len(prepend_len(prs)) - len(prepend_len(DSI)))
    return lv_cat(DSI, prs, bytes(padding), ci, sid)


def sha512(data):
    return hashlib.sha512(data).digest()


def hmac_sha512(key, message):
    return hmac.new(key, message, hashlib.sha512).digest()


def calculate_generator(prs, ci, sid):
    """G.calculate_generator: SHA-512 of the generator string mapped to ristretto255."""
    return rbcl.crypto_core_ristretto255_from_hash(sha512(generator_string(prs, ci, sid)))


def sample_scalar():
    """G.sample_scalar: uniform in [0, L), never zero (libsodium's scalar_random)."""
    return rbcl.crypto_core_ristretto255_scalar_random()


def scalar_mult_vfy(scalar, point):
    """`scalar * point` encoded, or None (the draft's abort) when `point` is not a valid
    ristretto255 encoding or the product is the identity."""
    if len(scalar) != SCALAR_BYTES or len(point) != ELEMENT_BYTES:
        return None
    try:
        return rbcl.crypto_scalarmult_ristretto255(bytes(scalar), bytes(point))
    except (ValueError, RuntimeError, TypeError):
        return None


def transcript_ir(share_a, data_a, share_b, data_b):
    return lv_cat(share_a, data_a) + lv_cat(share_b, data_b)


def intermediate_key(sid, k, transcript):
    """ISK = SHA-512(lv_cat(DSI || "_ISK", sid, K) || transcript)."""
    return sha512(lv_cat(DSI + b"_ISK", sid, k) + transcript)


class Keys:
    """What a finished run gives: ISK, the tag this party sends, the tag it expects."""

    def __init__(self, isk, own_tag, peer_tag):
        self.isk = isk
        self.own_tag = own_tag
        self.peer_tag = peer_tag


class Party:
    """One party's side of one CPace run. The secret scalar lives only here; use one per run."""

    INITIATOR = "initiator"
    RESPONDER = "responder"

    def __init__(self, role, prs, ci, sid, associated_data, scalar=None):
        self.role = role
        self.sid = bytes(sid)
        self.associated_data = bytes(associated_data)
        self._scalar = scalar if scalar is not None else sample_scalar()
        share = scalar_mult_vfy(self._scalar, calculate_generator(prs, ci, sid))
        # A derived generator is valid and a sampled scalar nonzero, so this exists.
        self.share = share if share is not None else bytes(ELEMENT_BYTES)

    def finish(self, peer_share, peer_data):
        """Keys from the other party's share and associated data; None (abort) when the share
        is invalid or gives the identity."""
        k = scalar_mult_vfy(self._scalar, peer_share)
        if k is None:
            return None
        if self.role == Party.INITIATOR:
            share_a, data_a, share_b, data_b = self.share, self.associated_data, peer_share, peer_data
        else:
            share_a, data_a, share_b, data_b = peer_share, peer_data, self.share, self.associated_data
        isk = intermediate_key(self.sid, k, transcript_ir(share_a, data_a, share_b, data_b))
        mac_key = sha512(b"CPaceMac" + self.sid + isk)
        tag_a = hmac_sha512(mac_key, lv_cat(share_a, data_a))
        tag_b = hmac_sha512(mac_key, lv_cat(share_b, data_b))
        if self.role == Party.INITIATOR:
            return Keys(isk, tag_a, tag_b)
        return Keys(isk, tag_b, tag_a)


# TenFoot's pairing (docs/protocol.md, "Pairing"): PRS = the PIN's ASCII digits,
# CI = lv_cat(label, broker key, remote key), sid = broker nonce || remote nonce.

PAIRING_LABEL = b"tenfoot-pair-v2"
BROKER_DATA = b"tenfoot-broker"
REMOTE_DATA = b"tenfoot-remote"
NONCE_BYTES = 32
NONCE_RANGE = range(16, 65)
TAG_BYTES = 64


def pairing_channel(broker_key, remote_key):
    """CI: the label, then both raw 32-byte CURVE public keys."""
    return lv_cat(PAIRING_LABEL, broker_key, remote_key)


def pairing_broker(pin, broker_key, remote_key, broker_nonce, remote_nonce, scalar=None):
    """The broker's side of one pairing round (the initiator)."""
    return Party(Party.INITIATOR, pin.encode("ascii"), pairing_channel(broker_key, remote_key),
                 broker_nonce + remote_nonce, BROKER_DATA, scalar)


def pairing_remote(pin, broker_key, remote_key, broker_nonce, remote_nonce, scalar=None):
    """The remote's side of one pairing round (the responder)."""
    return Party(Party.RESPONDER, pin.encode("ascii"), pairing_channel(broker_key, remote_key),
                 broker_nonce + remote_nonce, REMOTE_DATA, scalar)


def equal_in_constant_time(a, b):
    return hmac.compare_digest(bytes(a), bytes(b))
