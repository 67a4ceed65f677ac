"""A small TenFoot client in Python: proves that proto/ plus ZeroMQ is the whole contract.

Nothing here comes from the Swift code. The protobuf classes are generated from
proto/tenfoot/v1/tenfoot.proto at run time (grpcio-tools' protoc) into a temporary directory,
and the sockets are plain pyzmq:

- control: a DEALER connected to the broker's ROUTER; one frame per message, an Envelope; every
  request gets exactly one reply whose reply_to echoes the request's seq.
- state: a SUB connected to the broker's PUB; messages are [topic, Envelope] with topics
  "screen/<id>" (ScreenState or StateDelta) and "broker" (Heartbeat).

`CloneState` is the screen side of the zguide "Clone" pattern: subscribe, ask for a snapshot,
drop deltas at or below its seq, apply the rest in order, resync on a gap or a new epoch.

`Pairing` is a remote's side of pairing with a CURVE broker (docs/protocol.md, "Pairing"): one
CPace round per PIN attempt (cpace.py), key confirmation both ways; once paired, `Control` and
`CloneState` connect as CURVE clients with the remote's key pair (`Curve`).
"""

import importlib
import os
import sys
import tempfile
import time

import zmq
from zmq.utils import z85

import cpace

PROTOCOL_VERSION = 1


def generate(proto_root):
    """Runs protoc on tenfoot.proto and returns the generated module (tenfoot_pb2)."""
    from grpc_tools import protoc

    out = tempfile.mkdtemp(prefix="tenfoot-py-")
    source = os.path.join(proto_root, "tenfoot", "v1", "tenfoot.proto")
    status = protoc.main(["protoc", f"-I{proto_root}", f"--python_out={out}", source])
    if status != 0:
        raise RuntimeError(f"protoc failed on {source} (exit {status})")
    sys.path.insert(0, out)
    return importlib.import_module("tenfoot.v1.tenfoot_pb2")


class BrokerError(Exception):
    """The broker answered with a typed Error."""

    def __init__(self, pb, error):
        self.code = error.code
        self.message = error.message
        self.retry_after_ms = error.retry_after_ms
        self.name = pb.ErrorCode.Name(error.code)
        super().__init__(f"{self.name}: {error.message}")


class Curve:
    """A CURVE client's keys: its own key pair and the broker's public key, all Z85 text."""

    def __init__(self, public_key, secret_key, broker_key):
        self.public_key = public_key
        self.secret_key = secret_key
        self.broker_key = broker_key

    @staticmethod
    def new_key_pair():
        """A fresh key pair (Z85 public, Z85 secret), from libzmq."""
        public, secret = zmq.curve_keypair()
        return public.decode("ascii"), secret.decode("ascii")

    def apply(self, socket):
        """Makes `socket` a CURVE client of the broker (before it connects)."""
        socket.curve_serverkey = self.broker_key.encode("ascii")
        socket.curve_publickey = self.public_key.encode("ascii")
        socket.curve_secretkey = self.secret_key.encode("ascii")


class Control:
    """A DEALER on the broker's control socket: one request at a time, bounded waits."""

    def __init__(self, pb, context, endpoint, sender, timeout=5.0, curve=None):
        self.pb = pb
        self.sender = sender
        self.timeout = timeout
        self.seq = 0
        self.socket = context.socket(zmq.DEALER)
        self.socket.setsockopt(zmq.LINGER, 0)
        if curve is not None:
            curve.apply(self.socket)
        self.socket.connect(endpoint)

    def envelope(self, **body):
        """A current-version Envelope with the next seq and one body field set."""
        self.seq += 1
        envelope = self.pb.Envelope(
            protocol_version=PROTOCOL_VERSION,
            sender=self.sender,
            seq=self.seq,
            sent_at_ns=time.monotonic_ns(),
            **body,
        )
        return envelope

    def send_raw(self, data):
        """Sends one frame as is (for malformed-input checks)."""
        self.socket.send(data)

    def receive(self, reply_to):
        """Waits for the reply whose reply_to matches; earlier replies are skipped."""
        deadline = time.monotonic() + self.timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no reply to seq {reply_to} within {self.timeout} s")
            if not self.socket.poll(int(remaining * 1000) + 1):
                continue
            frames = self.socket.recv_multipart()
            if len(frames) != 1:
                raise AssertionError(f"reply has {len(frames)} frames, expected 1")
            reply = self.pb.Envelope.FromString(frames[0])
            if reply.reply_to == reply_to:
                return reply

    def request(self, **body):
        """Sends a request and returns the reply Envelope (which may carry an Error)."""
        envelope = self.envelope(**body)
        self.socket.send(envelope.SerializeToString())
        reply = self.receive(envelope.seq)
        if reply.protocol_version != PROTOCOL_VERSION:
            raise AssertionError(f"reply protocol_version {reply.protocol_version}")
        return reply

    def call(self, expected, **body):
        """Sends a request and returns the reply body named `expected`; an Error raises."""
        reply = self.request(**body)
        kind = reply.WhichOneof("body")
        if kind == "error":
            raise BrokerError(self.pb, reply.error)
        if kind != expected:
            raise AssertionError(f"expected {expected}, got {kind}")
        return getattr(reply, expected)

    def close(self):
        self.socket.close()


class CloneState:
    """A screen session's state kept in sync from the state socket (the Clone pattern)."""

    def __init__(self, pb, context, state_endpoint, control, screen_id, timeout=5.0, curve=None):
        self.pb = pb
        self.control = control
        self.screen_id = screen_id
        self.timeout = timeout
        self.topic = f"screen/{screen_id}".encode()
        self.socket = context.socket(zmq.SUB)
        self.socket.setsockopt(zmq.LINGER, 0)
        if curve is not None:
            curve.apply(self.socket)
        self.socket.setsockopt(zmq.SUBSCRIBE, self.topic)
        self.socket.setsockopt(zmq.SUBSCRIBE, b"broker")
        self.socket.connect(state_endpoint)
        self.epoch = None
        self.seq = None
        self.focused = None
        self.states = {}
        self.layout = None
        self.pending = []
        self.snapshots = 0
        self.deltas_applied = 0
        self.resyncs = []
        self.heartbeats = []
        self.effects = []
        self.drop_next_delta = False

    # The Clone steps.

    def resync(self, reason):
        """Asks for a snapshot over control and applies it with the buffered deltas."""
        self.resyncs.append(reason)
        snapshot = self.control.call("snapshot", snapshot_request=self.pb.SnapshotRequest(
            screen_id=self.screen_id))
        self.apply_snapshot(snapshot)

    def apply_snapshot(self, snapshot):
        if snapshot.screen_id != self.screen_id:
            raise AssertionError(f"snapshot of {snapshot.screen_id}, expected {self.screen_id}")
        if (self.epoch == snapshot.epoch and self.seq is not None and snapshot.seq <= self.seq):
            return  # Older than what is shown.
        self.epoch = snapshot.epoch
        self.seq = snapshot.seq
        self.layout = snapshot.layout
        self.focused = snapshot.focused if snapshot.HasField("focused") else None
        self.states = {item.id: item.state for item in snapshot.states}
        self.snapshots += 1
        buffered, self.pending = self.pending, []
        for delta in buffered:
            if delta.epoch == self.epoch and delta.seq > self.seq:
                self.apply_delta(delta)

    def apply_delta(self, delta):
        if self.seq is None:
            self.pending.append(delta)
            return
        if delta.epoch != self.epoch:
            self.pending = [delta]
            self.resync(f"epoch {self.epoch} -> {delta.epoch}")
            return
        if delta.seq <= self.seq:
            return  # Covered by the snapshot.
        if delta.seq != self.seq + 1:
            self.pending = [delta]
            self.resync(f"gap: have {self.seq}, got {delta.seq}")
            return
        self.seq = delta.seq
        self.focused = delta.focused if delta.HasField("focused") else None
        for item in delta.changed:
            self.states[item.id] = item.state
        self.effects.extend(delta.effects)
        self.deltas_applied += 1

    def handle(self, frames):
        """Feeds one [topic, envelope] message in."""
        if len(frames) != 2:
            raise AssertionError(f"state message has {len(frames)} frames, expected 2")
        topic, data = frames
        envelope = self.pb.Envelope.FromString(data)
        kind = envelope.WhichOneof("body")
        if topic == b"broker":
            if kind != "heartbeat":
                raise AssertionError(f"topic broker carried {kind}")
            self.heartbeats.append(envelope.heartbeat.epoch)
            if self.epoch is not None and envelope.heartbeat.epoch != self.epoch:
                self.resync("heartbeat with a new epoch")
            return
        if topic != self.topic:
            raise AssertionError(f"unexpected topic {topic!r}")
        if kind == "delta":
            if self.drop_next_delta:
                self.drop_next_delta = False  # Simulates a message lost at the high-water mark.
                return
            self.apply_delta(envelope.delta)
        elif kind == "snapshot":
            self.apply_snapshot(envelope.snapshot)
        else:
            raise AssertionError(f"topic {topic!r} carried {kind}")

    def start(self):
        """Subscribe (done in __init__), wait until the subscription is live, then snapshot:
        the Clone start. A SUB's subscription reaches the PUB asynchronously; a delta published
        before it arrives is lost without a gap to notice until the next one. The broker's
        heartbeat (every second, every 100 ms just after it starts) proves the path is open."""
        before = len(self.heartbeats)
        self.pump_until(lambda s: len(s.heartbeats) > before, "the broker's first heartbeat")
        self.resync("start")

    def pump_until(self, predicate, what):
        """Reads state messages until `predicate(self)` holds, bounded by the timeout."""
        deadline = time.monotonic() + self.timeout
        while not predicate(self):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"timed out waiting for {what}; have seq {self.seq}, "
                                   f"focused {self.focused}")
            if self.socket.poll(int(remaining * 1000) + 1):
                self.handle(self.socket.recv_multipart())

    def wait_for_seq(self, seq):
        self.pump_until(lambda s: s.seq is not None and s.seq >= seq, f"state seq {seq}")

    def state_name(self, item):
        return self.pb.FocusDisplayState.Name(self.states[item])

    def close(self):
        self.socket.close()


class PairingFailure(Exception):
    """Pairing could not go on, with its cause (`kind`): "unusable challenge" (the broker's
    key, nonce or share is malformed), "broker proof invalid" (the broker accepted the PIN but
    its own confirmation does not verify: its key is not trusted), "broker key changed" (not
    the key the caller expected), "unexpected reply"."""

    def __init__(self, kind, detail=""):
        self.kind = kind
        super().__init__(f"{kind}: {detail}" if detail else kind)


class Challenge:
    """One CPace round: the broker's nonce, share and key (raw), this remote's nonce."""

    def __init__(self, reply, remote_nonce):
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
    def broker_key_text(self):
        """The broker's public key in Z85, as CURVE sockets and `tenfoot-broker key` use it."""
        return z85.encode(self.broker_key).decode("ascii")


class Pairing:
    """A remote's side of pairing, over the broker's plain pairing socket (a DEALER: the remote
    is not on the allow-list yet). The PIN never leaves this process: each attempt is one CPace
    round whose messages let no one test a PIN offline.

    `public_key` is this remote's CURVE public key (Z85): the key the broker's allow-list will
    hold, bound into the CPace channel identifier with the broker's key. `control` replaces the
    socket with anything that has Control's `call` and `close` (the dialogue's unit tests)."""

    def __init__(self, pb, context, endpoint, public_key, name, timeout=5.0, control=None):
        self.pb = pb
        self.name = name
        self.public_key = z85.decode(public_key.encode("ascii"))
        self.control = control or Control(pb, context, endpoint, "pair", timeout)

    def probe_key(self):
        """The broker's current public key (Z85), starting no pairing."""
        reply = self.control.call("pair_challenge", pair_request=self.pb.PairRequest())
        if len(reply.broker_key) != 32:
            raise PairingFailure("unusable challenge", "no broker key in the probe's answer")
        return z85.encode(reply.broker_key).decode("ascii")

    def begin(self):
        """Asks the broker to show a PIN on its screens; returns the first round."""
        return self._round(next_round=False)

    def next_round(self):
        """Another round of the pairing in progress (same PIN), for the next attempt; raises
        BrokerError PAIRING_BACKOFF while the broker is backing off."""
        return self._round(next_round=True)

    def _round(self, next_round):
        remote_nonce = os.urandom(cpace.NONCE_BYTES)
        reply = self.control.call("pair_challenge", pair_request=self.pb.PairRequest(
            name=self.name, public_key=self.public_key, nonce=remote_nonce,
            next_round=next_round))
        return Challenge(reply, remote_nonce)

    def attempt(self, pin, challenge):
        """Tries `pin` in `challenge`'s round (used up either way). Returns the allow-list id
        once the broker's own confirmation verifies; a wrong PIN raises BrokerError
        PAIRING_FAILED (or PAIRING_BACKOFF) with `retry_after_ms`."""
        party = cpace.pairing_remote(pin, challenge.broker_key, self.public_key,
                                     challenge.nonce, challenge.remote_nonce)
        keys = party.finish(challenge.share, cpace.BROKER_DATA)
        if keys is None:
            raise PairingFailure("unusable challenge", "the broker's share is not a valid point")
        paired = self.control.call("paired", pair_proof=self.pb.PairProof(
            public_key=self.public_key, share=party.share, proof=keys.own_tag))
        if not cpace.equal_in_constant_time(paired.broker_proof, keys.peer_tag):
            raise PairingFailure("broker proof invalid",
                                 "the broker accepted the PIN but could not prove it knew it")
        return paired.peer_id

    def pair(self, read_pin, say=print, wait=time.sleep, expected_broker_key=None):
        """The PIN dialogue: starts a pairing (the screens show a PIN), refuses a broker whose
        key is not `expected_broker_key` (Z85, when given) before any PIN is typed, then tries
        each `digits`-digit line `read_pin()` returns (None: input ended), waiting the back-off
        the broker asks for after a wrong PIN and asking for a new round. Returns
        (allow-list id, broker key in Z85) or None when the input ended first."""
        first = self.begin()
        if expected_broker_key is not None and first.broker_key_text != expected_broker_key:
            raise PairingFailure("broker key changed",
                                 f"expected {expected_broker_key}, got {first.broker_key_text}")
        say(f"Enter the {first.digits}-digit PIN shown on the screen:")
        challenge = first
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
            except BrokerError as refusal:
                if refusal.name not in ("ERROR_CODE_PAIRING_FAILED", "ERROR_CODE_PAIRING_BACKOFF"):
                    raise
                say(refusal.message)
                if refusal.retry_after_ms:
                    wait(refusal.retry_after_ms / 1000)
                say("Enter the PIN again:")

    def close(self):
        self.control.close()
