"""The control connection: a DEALER on the broker's ROUTER, one request at a time.

Every request is one Envelope frame and gets exactly one reply whose `reply_to` echoes the
request's `seq`; replies to requests abandoned after a timeout are skipped. A request larger
than a part (192 KiB: a large layout) goes in parts (MessagePart, docs/protocol.md "Large
messages in parts"), answered once as a whole. The socket queues
only on a live connection (ZMQ_IMMEDIATE), so a request made while the broker is away times
out (and the caller retries) instead of being delivered stale after a restart; it reconnects
every 100-250 ms, and connects to every broker of a zone (only the active one is bound).
"""

from __future__ import annotations

import time
from typing import Optional

import zmq
from zmq.utils.monitor import recv_monitor_message

from .connection import Endpoints
from .errors import BrokerError, NotPaired, ProtocolViolation, Timeout
from .keys import Curve
from .v1 import tenfoot_pb2 as pb

PROTOCOL_VERSION = 1
# The most bytes of the whole encoded Envelope one part carries, and the most parts a message
# may have (the broker reads messages of up to 256 KiB by default).
PART_SIZE = 192 * 1024
MAX_PARTS = 1024


def frames_of(envelope: pb.Envelope, part_size: int = PART_SIZE) -> list:
    """The frames that carry `envelope`: its encoding if it fits in one part, else its parts
    in order (each an Envelope with the same seq whose body is a MessagePart). Raises
    ValueError past MAX_PARTS."""
    whole = envelope.SerializeToString()
    if len(whole) <= part_size:
        return [whole]
    count = -(-len(whole) // part_size)
    if count > MAX_PARTS:
        raise ValueError(f"a message of {len(whole)} bytes needs {count} parts "
                         f"(at most {MAX_PARTS} of {part_size} bytes)")
    return [pb.Envelope(protocol_version=envelope.protocol_version, sender=envelope.sender,
                        seq=envelope.seq, sent_at_ns=envelope.sent_at_ns,
                        part=pb.MessagePart(index=index, count=count,
                                            data=whole[index * part_size:(index + 1) * part_size]))
            .SerializeToString() for index in range(count)]


class Control:
    """A DEALER on the broker's control socket with bounded request/reply."""

    def __init__(self, context: zmq.Context, endpoints: Endpoints, sender: str,
                 timeout: Optional[float] = None, curve: Optional[Curve] = None,
                 control: Optional[list] = None):
        self.sender = sender
        self.endpoints = endpoints
        self.timeout = endpoints.request_timeout if timeout is None else timeout
        self.seq = 0
        self.socket = context.socket(zmq.DEALER)
        self.socket.setsockopt(zmq.LINGER, 0)
        self.socket.setsockopt(zmq.IMMEDIATE, 1)
        self.socket.setsockopt(zmq.RECONNECT_IVL, 100)
        self.socket.setsockopt(zmq.RECONNECT_IVL_MAX, 250)
        interval, beat_timeout = endpoints.heartbeat
        self.socket.setsockopt(zmq.HEARTBEAT_IVL, interval)
        self.socket.setsockopt(zmq.HEARTBEAT_TIMEOUT, beat_timeout)
        self.monitor: Optional[zmq.Socket] = None
        if curve is not None:
            curve.apply(self.socket)
            # Watched until the first handshake: a key the broker refuses (not on its
            # allow-list, or revoked) is told as such, not as a timeout.
            self.monitor = self.socket.get_monitor_socket(
                zmq.EVENT_HANDSHAKE_FAILED_AUTH | zmq.EVENT_HANDSHAKE_SUCCEEDED)
        for endpoint in control if control is not None else endpoints.control:
            self.socket.connect(endpoint)

    def envelope(self, **body) -> pb.Envelope:
        """A current-version Envelope with the next seq and one body field set."""
        self.seq += 1
        return pb.Envelope(protocol_version=PROTOCOL_VERSION, sender=self.sender, seq=self.seq,
                           sent_at_ns=time.monotonic_ns(), **body)

    def send_raw(self, data: bytes) -> None:
        """Sends one frame as is (for malformed-input checks)."""
        self.socket.send(data)

    def check_handshake(self) -> None:
        """Reads the monitor's events: a refused key raises NotPaired; a handshake that
        succeeded ends the watch (a broker answered this key)."""
        while self.monitor is not None and self.monitor.poll(0):
            event = recv_monitor_message(self.monitor)
            if event["event"] == zmq.EVENT_HANDSHAKE_FAILED_AUTH:
                raise NotPaired(pb.ERROR_CODE_NOT_PAIRED, (
                    f"the broker at {','.join(self.endpoints.control)} refused this key in "
                    "the CURVE handshake: it is not on the allow-list (pair with tenfoot.pair, "
                    "or add it with tenfoot-broker remotes add)"))
            if event["event"] == zmq.EVENT_HANDSHAKE_SUCCEEDED:
                self._stop_monitor()

    def _stop_monitor(self) -> None:
        if self.monitor is not None:
            self.socket.disable_monitor()
            self.monitor.close()
            self.monitor = None

    def receive(self, reply_to: int, timeout: Optional[float] = None) -> pb.Envelope:
        """Waits (bounded) for the reply whose reply_to matches; earlier replies are skipped."""
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        while True:
            self.check_handshake()
            remaining = deadline - time.monotonic()
            wait = remaining if self.monitor is None else min(remaining, 0.05)
            if remaining <= 0 or not self.socket.poll(max(1, int(wait * 1000))):
                if time.monotonic() >= deadline:
                    self.check_handshake()
                    raise Timeout(f"no reply to request {reply_to} from "
                                  f"{','.join(self.endpoints.control)} within {limit:g} s")
                continue
            frames = self.socket.recv_multipart()
            if len(frames) != 1:
                raise ProtocolViolation(f"a reply has {len(frames)} frames, expected 1")
            try:
                reply = pb.Envelope.FromString(frames[0])
            except Exception as error:  # protobuf's DecodeError has no stable public home.
                raise ProtocolViolation(f"a reply is not an Envelope: {error}") from error
            if reply.reply_to == reply_to:
                return reply

    def request(self, timeout: Optional[float] = None, **body) -> pb.Envelope:
        """Sends a request and returns the reply Envelope (which may carry an Error)."""
        limit = self.timeout if timeout is None else timeout
        envelope = self.envelope(**body)
        # With ZMQ_IMMEDIATE a send waits while no connection is up: bounded too.
        self.socket.setsockopt(zmq.SNDTIMEO, max(1, int(limit * 1000)))
        try:
            # The parts of a large request follow each other at once (the broker discards a
            # message whose parts stop coming).
            for frame in frames_of(envelope):
                self.socket.send(frame)
        except zmq.Again:
            self.check_handshake()
            raise Timeout(f"no connection to {','.join(self.endpoints.control)} "
                          f"within {limit:g} s (is the broker running?)") from None
        reply = self.receive(envelope.seq, limit)
        if reply.protocol_version != PROTOCOL_VERSION:
            raise ProtocolViolation(f"reply speaks protocol {reply.protocol_version}")
        return reply

    def call(self, expected: str, timeout: Optional[float] = None, **body):
        """Sends a request and returns the reply body named `expected`; an Error raises the
        typed BrokerError subclass (UnknownScreen, Forbidden, ...)."""
        reply = self.request(timeout, **body)
        kind = reply.WhichOneof("body")
        if kind == "error":
            raise BrokerError.from_wire(reply.error)
        if kind != expected:
            raise ProtocolViolation(f"expected {expected}, got {kind}")
        return getattr(reply, expected)

    def close(self) -> None:
        self._stop_monitor()
        self.socket.close()
