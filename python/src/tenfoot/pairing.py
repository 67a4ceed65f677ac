"""Pairing with a CURVE broker by PIN (docs/protocol.md, "Pairing").

A remote asks the broker's plain pairing socket to pair; the broker shows a PIN on its screens.
The PIN never leaves this process: each attempt is one CPace round (`cpace.py`) whose messages
let no one test a PIN offline, with key confirmation both ways, so a broker that does not know
the PIN (an impostor) is refused too. Once paired, the remote's key is on the broker's
allow-list and the broker's key is pinned in the remote's state directory.

    peer_id, broker_key = tenfoot.pair("tcp://tv:7700", name="kitchen", read_pin=input)
"""

from __future__ import annotations

import os
import time
from typing import Callable, Optional, Tuple

import zmq
from zmq.utils import z85

from . import cpace
from .connection import Endpoints
from .control import Control
from .errors import BrokerError, PairingBackoff, PairingFailed, PairingFailure
from .keys import ClientTrust, state_directory
from .v1 import tenfoot_pb2 as pb


class Challenge:
    """One CPace round: the broker's nonce, share and key (raw), this remote's nonce."""

    def __init__(self, reply: pb.PairChallenge, remote_nonce: bytes):
        self.nonce = bytes(reply.nonce)
        self.remote_nonce = remote_nonce
        self.share = bytes(reply.share)
        self.broker_key = bytes(reply.broker_key)
        self.digits = reply.pin_digits
        self.expires_in_ms = reply.expires_in_ms
        if (len(self.broker_key) != 32 or len(self.nonce) not in cpace.NONCE_RANGE
                or len(self.share) != cpace.ELEMENT_BYTES):
            raise PairingFailure("unusable challenge",
                                 f"key {len(self.broker_key)} B, nonce {len(self.nonce)} B, "
                                 f"share {len(self.share)} B")

    @property
    def broker_key_text(self) -> str:
        """The broker's public key in Z85, as CURVE sockets and `tenfoot-broker key` use it."""
        return z85.encode(self.broker_key).decode("ascii")


class Pairing:
    """A remote's side of pairing over the broker's pairing socket (a plain DEALER: the remote
    is not on the allow-list yet). `public_key` is this remote's CURVE public key (Z85), the
    key the allow-list will hold. `control` replaces the socket with anything that has
    Control's `call` and `close` (the dialogue's unit tests)."""

    def __init__(self, context: Optional[zmq.Context], endpoint: Optional[str], public_key: str,
                 name: str, timeout: float = 5.0, control=None):
        self.name = name
        self.public_key = z85.decode(public_key.encode("ascii"))
        self.control = control or Control(
            context, Endpoints([endpoint], [], endpoint), "pair", timeout, control=[endpoint])

    def probe_key(self) -> str:
        """The broker's current public key (Z85), starting no pairing."""
        reply = self.control.call("pair_challenge", pair_request=pb.PairRequest())
        if len(reply.broker_key) != 32:
            raise PairingFailure("unusable challenge", "no broker key in the probe's answer")
        return z85.encode(reply.broker_key).decode("ascii")

    def begin(self) -> Challenge:
        """Asks the broker to show a PIN on its screens; returns the first round."""
        return self._round(next_round=False)

    def next_round(self) -> Challenge:
        """Another round of the pairing in progress (same PIN), for the next attempt; raises
        PairingBackoff while the broker is backing off."""
        return self._round(next_round=True)

    def _round(self, next_round: bool) -> Challenge:
        remote_nonce = os.urandom(cpace.NONCE_BYTES)
        reply = self.control.call("pair_challenge", pair_request=pb.PairRequest(
            name=self.name, public_key=self.public_key, nonce=remote_nonce,
            next_round=next_round))
        return Challenge(reply, remote_nonce)

    def attempt(self, pin: str, challenge: Challenge) -> str:
        """Tries `pin` in `challenge`'s round (used up either way). Returns the allow-list id
        once the broker's own confirmation verifies; a wrong PIN raises PairingFailed (or
        PairingBackoff) with `retry_after_ms`."""
        party = cpace.pairing_remote(pin, challenge.broker_key, self.public_key,
                                     challenge.nonce, challenge.remote_nonce)
        keys = party.finish(challenge.share, cpace.BROKER_DATA)
        if keys is None:
            raise PairingFailure("unusable challenge", "the broker's share is not a valid point")
        paired = self.control.call("paired", pair_proof=pb.PairProof(
            public_key=self.public_key, share=party.share, proof=keys.own_tag))
        if not cpace.equal_in_constant_time(paired.broker_proof, keys.peer_tag):
            raise PairingFailure("broker proof invalid",
                                 "the broker accepted the PIN but could not prove it knew it")
        return paired.peer_id

    def pair(self, read_pin: Callable[[], Optional[str]], say: Callable[[str], None] = print,
             wait: Callable[[float], None] = time.sleep,
             expected_broker_key: Optional[str] = None) -> Optional[Tuple[str, str]]:
        """The PIN dialogue: starts a pairing (the screens show a PIN), refuses a broker whose
        key is not `expected_broker_key` (Z85, when given) before any PIN is typed, then tries
        each line `read_pin()` returns (None: input ended), waiting the back-off the broker
        asks for after a wrong PIN (`wait`, injected so tests need not sleep). Returns
        (allow-list id, broker key in Z85), or None when the input ended first."""
        first = self.begin()
        if expected_broker_key is not None and first.broker_key_text != expected_broker_key:
            raise PairingFailure("broker key changed",
                                 f"expected {expected_broker_key}, got {first.broker_key_text}")
        say(f"Enter the {first.digits}-digit PIN shown on the screen:")
        challenge: Optional[Challenge] = first
        while True:
            line = read_pin()
            if line is None:
                return None
            pin = line.strip()
            if len(pin) != first.digits or not pin.isascii() or not pin.isdigit():
                say(f"the PIN is {first.digits} digits: try again")
                continue
            try:
                if challenge is None:
                    challenge = self.next_round()
                    if challenge.broker_key != first.broker_key:
                        raise PairingFailure("unusable challenge", "the broker key changed")
                round_used, challenge = challenge, None
                return self.attempt(pin, round_used), first.broker_key_text
            except (PairingFailed, PairingBackoff) as refusal:
                say(refusal.message)
                if refusal.retry_after_ms:
                    wait(refusal.retry_after_ms / 1000)
                say("Enter the PIN again:")

    def close(self) -> None:
        self.control.close()


def pair(pairing_endpoint: str, control_endpoint: str, *, name: str = "python",
         read_pin: Callable[[], Optional[str]] = input, state_dir: Optional[str] = None,
         program: str = "remote", say: Callable[[str], None] = print,
         expected_broker_key: Optional[str] = None) -> Optional[Tuple[str, str]]:
    """Pairs this program's key (from its state directory, created if missing) with the broker
    and pins the broker's key for `control_endpoint` there, so `Remote` and `App` connect over
    CURVE without being given the key. Returns (allow-list id, broker key) or None."""
    trust = ClientTrust(state_directory(program, state_dir))
    context = zmq.Context()
    pairing = Pairing(context, pairing_endpoint, trust.keys.public_key, name)
    try:
        result = pairing.pair(read_pin, say, expected_broker_key=expected_broker_key)
    finally:
        pairing.close()
        context.term()
    if result is not None:
        trust.pin(result[1], control_endpoint)
    return result
