"""One screen session seen from a client: the state socket, the Clone sync, resync and beats.

`ScreenSession` owns a SUB on the broker's state socket (every broker of a zone) and uses a
`Control` for snapshots, registration and heartbeats. It survives a broker restart and a zone
takeover the way the Swift screen does: a heartbeat with a new epoch, a gap, or a heartbeat
answered "unknown screen" makes it ask for a snapshot again; a session the broker lost is
registered again with the layout last shown (focus included) when this client owns the layout;
a request nobody answers is retried on the next turn of the loop.
"""

from __future__ import annotations

import logging
import time
from typing import Callable, List, Optional, Tuple

import zmq

from .control import Control
from .errors import (BrokerError, Forbidden, NotPaired, ProtocolViolation, ScreenGone,
                     StoreUnavailable, Timeout, UnknownScreen)
from .keys import Curve
from .sync import Frame, StateSync
from .v1 import tenfoot_pb2 as pb

log = logging.getLogger("tenfoot.session")

BROKER_TOPIC = b"broker"
DEFAULT_BEAT = 1.0


class ScreenSession:
    """A screen session's state, kept in sync; `layout` (if given) is registered when the
    broker does not know the session, `app` marks this client as the screen's app (the broker
    then holds the inputs after an activation until the app's reaction). `beats`: send the
    screen heartbeats that keep the session alive (a client that shows or owns the screen; an
    app attached to a screen another process shows does not, and its role may not)."""

    def __init__(self, context: zmq.Context, control: Control, screen: str, *,
                 layout: Optional[pb.Layout] = None, app: bool = False,
                 curve: Optional[Curve] = None, state: Optional[List[str]] = None,
                 beats: bool = True):
        self.control = control
        self.screen = screen
        self.layout = layout
        self.app = app
        self.sync = StateSync(screen)
        self.topic = f"screen/{screen}".encode()
        self.socket = context.socket(zmq.SUB)
        self.socket.setsockopt(zmq.LINGER, 0)
        self.socket.setsockopt(zmq.RECONNECT_IVL, 100)
        self.socket.setsockopt(zmq.RECONNECT_IVL_MAX, 250)
        interval, beat_timeout = control.endpoints.heartbeat
        self.socket.setsockopt(zmq.HEARTBEAT_IVL, interval)
        self.socket.setsockopt(zmq.HEARTBEAT_TIMEOUT, beat_timeout)
        if curve is not None:
            curve.apply(self.socket)
        self.socket.setsockopt(zmq.SUBSCRIBE, self.topic)
        self.socket.setsockopt(zmq.SUBSCRIBE, BROKER_TOPIC)
        for endpoint in state if state is not None else control.endpoints.state:
            self.socket.connect(endpoint)
        self.beats = beats
        self.beat_interval = DEFAULT_BEAT
        self.next_beat = time.monotonic() + self.beat_interval
        self.resyncing = False
        # What the session saw, for callers and tests.
        self.resyncs: List[str] = []
        self.heartbeats: List[int] = []
        self.effects: List[pb.FocusEffect] = []
        self.snapshots = 0
        self.deltas_applied = 0
        self.drop_next_delta = False  # Fault injection: as if one delta were lost.

    # What the state says now.

    @property
    def frame(self) -> Optional[Frame]:
        return self.sync.frame

    @property
    def focused(self) -> Optional[str]:
        return self.frame.focused if self.frame else None

    @property
    def seq(self) -> Optional[int]:
        return self.frame.seq if self.frame else None

    @property
    def epoch(self) -> Optional[int]:
        return self.frame.epoch if self.frame else None

    @property
    def states(self) -> dict:
        return self.frame.states if self.frame else {}

    def state_name(self, item: str) -> str:
        """The wire name of the item's display state ("FOCUS_DISPLAY_STATE_FOCUSED")."""
        return pb.FocusDisplayState.Name(self.states[item])

    # The Clone steps.

    def start(self, timeout: float = 5.0) -> List[Tuple[Frame, bool]]:
        """Waits until the subscription is live (a broker heartbeat arrived: a SUB's
        subscription reaches the PUB asynchronously), then asks for the first snapshot."""
        before = len(self.heartbeats)
        rendered: List[Tuple[Frame, bool]] = []
        deadline = time.monotonic() + timeout
        while len(self.heartbeats) == before:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise Timeout(f"no broker heartbeat on {','.join(self.control.endpoints.state)} "
                              f"within {timeout:g} s (is the broker running?)")
            rendered += self.pump(remaining, resync_when_waiting=False)
        rendered += self.resync("start")
        return rendered

    def resync(self, reason: str) -> List[Tuple[Frame, bool]]:
        """Asks for a snapshot (registering the layout first if this client owns it and the
        broker does not know the session) and applies it; returns the frames rendered. When
        the broker does not answer, it returns nothing and the next turn of `pump` retries."""
        self.sync.snapshot_requested()
        if self.frame is not None:
            self.resyncing = True
        self.resyncs.append(reason)
        request = pb.SnapshotRequest(screen_id=self.screen, app=self.app)
        for attempt in range(2):
            try:
                snapshot = self.control.call("snapshot", snapshot_request=request)
            except Timeout:
                return []
            except (NotPaired, Forbidden):
                raise
            except (UnknownScreen, ScreenGone):
                if attempt > 0 or not self.register():
                    return []  # Another screen registers it; its publication wakes us.
                continue
            return self._perform(self.sync.apply_snapshot(snapshot), snapshot=True)
        return []

    def layout_to_register(self) -> Optional[pb.Layout]:
        """The layout last shown (the app's pages included, focus where it was) once there is
        one, so a broker that lost the session gets the screen as it was; else the initial."""
        if self.layout is None:
            return None
        if self.frame is None:
            return self.layout
        layout = pb.Layout()
        layout.CopyFrom(self.frame.layout)
        layout.initial_focus = self.frame.focused or ""
        return layout

    def register(self) -> bool:
        """Registers the layout; False when there is none to register or the broker could not
        take it yet (it answers nothing, or its store is unavailable)."""
        layout = self.layout_to_register()
        if layout is None:
            return False
        try:
            self.control.call("ack", register_screen=pb.RegisterScreen(
                screen_id=self.screen, layout=layout))
        except (Timeout, StoreUnavailable):
            return False
        return True

    def beat(self) -> List[Tuple[Frame, bool]]:
        """Tells the broker this client still shows the session (so it outlives the grace
        period); a broker that no longer knows it gets a resync (and a registration)."""
        self.next_beat = time.monotonic() + self.beat_interval
        if self.sync.awaiting_snapshot or not self.beats:
            return []
        try:
            self.control.call("ack", heartbeat=pb.Heartbeat(screen_id=self.screen))
        except Timeout:
            return []
        except Forbidden as refusal:
            log.warning("screen heartbeats refused, not sent again: %s", refusal.message)
            self.beats = False
            return []
        except (UnknownScreen, ScreenGone):
            return self.resync("the broker no longer knows this session")
        return []

    def handle(self, frames: List[bytes]) -> List[Tuple[Frame, bool]]:
        """Feeds one [topic, envelope] message in; returns the frames rendered."""
        if len(frames) != 2:
            raise ProtocolViolation(f"a state message has {len(frames)} frames, expected 2")
        topic, data = frames
        try:
            envelope = pb.Envelope.FromString(data)
        except Exception as error:
            raise ProtocolViolation(f"a state message is not an Envelope: {error}") from error
        kind = envelope.WhichOneof("body")
        if topic == BROKER_TOPIC and kind == "heartbeat":
            beat = envelope.heartbeat
            self.heartbeats.append(beat.epoch)
            if beat.screen_grace_ms:
                self.beat_interval = min(DEFAULT_BEAT, max(0.05, beat.screen_grace_ms / 4000))
                self.next_beat = min(self.next_beat, time.monotonic() + self.beat_interval)
            return self._perform(self.sync.apply_heartbeat(beat.epoch))
        if topic != self.topic:
            return []  # Another screen whose id shares this one's prefix.
        if kind == "delta":
            if self.drop_next_delta:
                self.drop_next_delta = False
                return []
            return self._perform(self.sync.apply_delta(envelope.delta))
        if kind == "snapshot":
            current = self.frame
            if self.app and (self.sync.awaiting_snapshot or current is None
                             or envelope.snapshot.epoch != current.epoch):
                # A session registered anew (a broker restart, a takeover) does not know
                # its app yet: ask with the app flag instead of taking the publication, so
                # the broker holds inputs after an activation for this app again.
                return self.resync("a new session was published")
            return self._perform(self.sync.apply_snapshot(envelope.snapshot), snapshot=True)
        return []

    def pump(self, timeout: float, resync_when_waiting: bool = True) -> List[Tuple[Frame, bool]]:
        """Waits up to `timeout` for state messages and handles all that arrived; retries a
        pending resync and sends a due heartbeat. Returns the frames rendered, each with
        whether it is the first after a resync."""
        rendered: List[Tuple[Frame, bool]] = []
        if resync_when_waiting and self.sync.awaiting_snapshot:
            rendered += self.resync("retry")
        wait = timeout
        if self.beats:
            wait = min(wait, max(0.0, self.next_beat - time.monotonic()))
        if self.sync.awaiting_snapshot and resync_when_waiting:
            wait = min(wait, 0.25)  # Bounded: the session's registration may come unheard.
        if self.socket.poll(max(0, int(wait * 1000))):
            while True:
                try:
                    frames = self.socket.recv_multipart(zmq.NOBLOCK)
                except zmq.Again:
                    break
                rendered += self.handle(frames)
        if time.monotonic() >= self.next_beat and resync_when_waiting:
            rendered += self.beat()
        return rendered

    def pump_until(self, predicate: Callable[["ScreenSession"], bool], what: str,
                   timeout: float = 5.0) -> List[Tuple[Frame, bool]]:
        """Pumps until `predicate(self)` holds, bounded; raises Timeout saying what it
        waited for and what it has."""
        deadline = time.monotonic() + timeout
        rendered: List[Tuple[Frame, bool]] = []
        while not predicate(self):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise Timeout(f"timed out after {timeout:g} s waiting for {what}; have seq "
                              f"{self.seq}, focused {self.focused}")
            rendered += self.pump(remaining)
        return rendered

    def wait_for_seq(self, seq: int, timeout: float = 5.0) -> None:
        """Pumps until the state has reached `seq`."""
        self.pump_until(lambda s: s.seq is not None and s.seq >= seq, f"state seq {seq}", timeout)

    def _perform(self, action, snapshot: bool = False) -> List[Tuple[Frame, bool]]:
        if action is None:
            return []
        kind, value = action
        if kind == "resync":
            return self.resync(value)
        frame: Frame = value
        if snapshot:
            self.snapshots += 1
        else:
            self.deltas_applied += 1
            self.effects.extend(frame.effects)
        resynced, self.resyncing = self.resyncing, False
        return [(frame, resynced)]

    def close(self) -> None:
        self.socket.close()
