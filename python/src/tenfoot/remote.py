"""A remote in Python: key presses, swipes, text and programmatic focus, as `tenfoot-remote`.

    remote = tenfoot.Remote(screen="main")
    print(remote.press("right").focused)

Every input gets the broker's Ack (the focused item after it, and what the engine did). With
a zone's brokers, an input that no broker answered or that the new active broker does not
know the screen for yet (a takeover: the screen registers again) is sent again with the same
press id, which the zone's store applies at most once, for at most 3 s.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import List, Optional, Union

import zmq

from .client import connect_settings, pin_after_answer
from .connection import Endpoints
from .control import Control
from .errors import InvalidInput, ScreenGone, Timeout, UnknownScreen
from .v1 import tenfoot_pb2 as pb

ZONE_SCREEN_WAIT = 3.0
VERSION = "0.1.0"


@dataclass
class PressResult:
    """What the broker did for one action: the focused item afterwards and every effect."""

    focused: Optional[str]
    effects: List[pb.FocusEffect] = field(default_factory=list)
    state_seq: int = 0

    def kinds(self) -> List[str]:
        """The effects' kinds ("focus_changed", "activated", "movement_failed", ...)."""
        return [effect.WhichOneof("kind") for effect in self.effects]


def key_code(name: Union[str, int]) -> int:
    """The wire Key for a name ("right", "select", "menu", "play_pause", ...)."""
    if isinstance(name, int):
        return name
    try:
        return pb.Key.Value("KEY_" + name.strip().upper().replace("-", "_"))
    except ValueError:
        keys = ", ".join(n[4:].lower() for n in pb.Key.keys() if n != "KEY_UNSPECIFIED")
        raise InvalidInput(pb.ERROR_CODE_INVALID_INPUT,
                           f"no key named {name!r}; keys: {keys}") from None


class Remote:
    """A remote driving one screen session (`screen`; empty: the only session)."""

    def __init__(self, broker: Union[str, Endpoints, None] = None, screen: str = "main", *,
                 name: str = "python", state_dir: Optional[str] = None,
                 broker_key: Optional[str] = None, insecure: bool = False,
                 timeout: float = 5.0):
        self.screen = screen
        self.endpoints, curve, trust = connect_settings(
            broker, "remote", state_dir=state_dir, broker_key=broker_key, insecure=insecure)
        self.context = zmq.Context()
        self.curve = curve
        self.timeout = timeout
        self.control = Control(self.context, self.endpoints, f"remote:{name}", timeout, curve)
        self.welcome = self.control.call("welcome", hello=pb.Hello(
            role=pb.PEER_ROLE_REMOTE, client=f"tenfoot-python {VERSION}"))
        pin_after_answer(trust, curve, self.endpoints)
        self._waiter: Optional[zmq.Socket] = None

    def __enter__(self) -> "Remote":
        return self

    def __exit__(self, *_) -> None:
        self.close()

    # Actions.

    def press(self, key: Union[str, int]) -> PressResult:
        """Presses and releases `key` (e.g. "right", "select", "menu")."""
        code = key_code(key)
        # A tap: released at the instant it was pressed. The up goes once the down is
        # acknowledged, but the broker derives repeats and long presses from the stamps
        # alone, so an up stamped on sending would make a late answer a held key.
        at = time.monotonic_ns()
        acks = [self.send(key=pb.KeyEvent(key=code, phase=phase, timestamp_ns=at))
                for phase in (pb.KEY_PHASE_DOWN, pb.KEY_PHASE_UP)]
        return self._result(acks)

    def select(self) -> PressResult:
        """Presses select (activates the focused item)."""
        return self.press("select")

    def back(self) -> PressResult:
        """Presses Menu (back)."""
        return self.press("menu")

    def swipe(self, direction: str) -> PressResult:
        """A slow swipe on a touch surface ("up", "down", "left", "right"), lifted at rest."""
        axis = {"left": ("x", -1), "right": ("x", 1), "up": ("y", -1), "down": ("y", 1)}
        if direction not in axis:
            raise InvalidInput(pb.ERROR_CODE_INVALID_INPUT,
                               f"a swipe goes up, down, left or right, not {direction!r}")
        name, sign = axis[direction]
        start = time.monotonic_ns()
        samples = [(pb.TOUCH_PHASE_BEGAN, -0.6, 0.0)]
        samples += [(pb.TOUCH_PHASE_MOVED, -0.6 + step * 0.02, step * 8.33)
                    for step in range(1, 41)]
        samples += [(pb.TOUCH_PHASE_MOVED, 0.2, 500.0), (pb.TOUCH_PHASE_ENDED, 0.2, 600.0)]
        acks = []
        for phase, position, at_ms in samples:
            point = {"x": 0.0, "y": 0.0, name: sign * position}
            acks.append(self.send(touch=pb.TouchEvent(
                phase=phase, timestamp_ns=start + int(at_ms * 1e6), **point)))
        return self._result(acks)

    def type(self, text: str) -> PressResult:
        """Appends `text` to the focused text field."""
        return self._result([self.send(text=pb.TextInput(append=text))])

    def focus(self, target: str) -> PressResult:
        """Asks for focus on an item or group (programmatic focus)."""
        ack = self.control.call("ack", focus_request=pb.FocusRequest(
            screen_id=self.screen, any=target))
        return self._result([ack])

    def snapshot(self) -> pb.ScreenState:
        """The screen's whole state now."""
        return self.control.call("snapshot", snapshot_request=pb.SnapshotRequest(
            screen_id=self.screen))

    # The wire.

    def send(self, **event) -> pb.Ack:
        """Sends one Input (a `key`, `touch`, `text` or `pointer` event) and returns its Ack;
        a refusal raises its typed error. In a zone it is retried across a takeover."""
        request = pb.Input(screen_id=self.screen, **event)
        if not self.endpoints.is_zone:
            return self.control.call("ack", input=request)
        request.press_id = uuid.uuid4().hex
        deadline = time.monotonic() + ZONE_SCREEN_WAIT
        # Short waits, as the Swift screen's in a zone: a request that went to the lost
        # broker's connection before its heartbeat dropped it is sent again, same press id.
        wait = min(self.timeout, self.endpoints.request_timeout)
        while True:
            try:
                return self.control.call("ack", wait, input=request)
            except Timeout:
                if time.monotonic() >= deadline:
                    raise
            except (UnknownScreen, ScreenGone):
                if time.monotonic() >= deadline:
                    raise
                self._await_registration(min(0.25, deadline - time.monotonic()))

    def _await_registration(self, timeout: float) -> None:
        """Waits (bounded) for a publication on the screen's topic: its registration on the
        new active broker. The first call only subscribes (it may have come in between)."""
        if self._waiter is None:
            self._waiter = self.context.socket(zmq.SUB)
            self._waiter.setsockopt(zmq.LINGER, 0)
            if self.curve is not None:
                self.curve.apply(self._waiter)
            self._waiter.setsockopt(zmq.SUBSCRIBE, f"screen/{self.screen}".encode())
            for endpoint in self.endpoints.state:
                self._waiter.connect(endpoint)
            return
        if self._waiter.poll(max(1, int(timeout * 1000))):
            self._waiter.recv_multipart()

    def _result(self, acks: List[pb.Ack]) -> PressResult:
        last = acks[-1]
        return PressResult(focused=last.focused if last.HasField("focused") else None,
                           effects=[e for ack in acks for e in ack.effects],
                           state_seq=last.state_seq)

    def close(self) -> None:
        if self._waiter is not None:
            self._waiter.close()
        self.control.close()
        self.context.term()
