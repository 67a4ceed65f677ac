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
"""

import importlib
import os
import sys
import tempfile
import time

import zmq

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
        name = pb.ErrorCode.Name(error.code)
        super().__init__(f"{name}: {error.message}")


class Control:
    """A DEALER on the broker's control socket: one request at a time, bounded waits."""

    def __init__(self, pb, context, endpoint, sender, timeout=5.0):
        self.pb = pb
        self.sender = sender
        self.timeout = timeout
        self.seq = 0
        self.socket = context.socket(zmq.DEALER)
        self.socket.setsockopt(zmq.LINGER, 0)
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

    def __init__(self, pb, context, state_endpoint, control, screen_id, timeout=5.0):
        self.pb = pb
        self.control = control
        self.screen_id = screen_id
        self.timeout = timeout
        self.topic = f"screen/{screen_id}".encode()
        self.socket = context.socket(zmq.SUB)
        self.socket.setsockopt(zmq.LINGER, 0)
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
