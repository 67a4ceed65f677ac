"""A screen session's state, kept in sync from the broker (the zguide "Clone" pattern).

`StateSync` is the pure machine, as `ScreenCore/StateSync` is in Swift: subscribe first, ask
for a snapshot, buffer deltas until it arrives, drop those at or below its seq, apply the rest
in order; a gap in sequence numbers or a new broker epoch (a restart, a zone takeover) means
"ask again". It knows no sockets: each `apply_*` returns what to do next.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional, Tuple, Union

from .v1 import tenfoot_pb2 as pb

PENDING_LIMIT = 10_000


@dataclass
class Frame:
    """A screen's state at one sequence number, and the effects that led to it (empty for a
    snapshot)."""

    screen: str
    epoch: int
    seq: int
    layout: pb.Layout
    focused: Optional[str]
    states: Dict[str, int]
    effects: List[pb.FocusEffect] = field(default_factory=list)
    text: Dict[str, str] = field(default_factory=dict)
    pointer: Optional[pb.PointerState] = None
    snapshot: bool = False

    def state_name(self, item: str) -> str:
        """The item's display state: "focused", "unfocused", "highlighted", "selected",
        "unavailable"."""
        return pb.FocusDisplayState.Name(self.states[item])[len("FOCUS_DISPLAY_STATE_"):].lower()


Render = Tuple[str, Frame]  # ("render", frame)
Resync = Tuple[str, str]  # ("resync", reason)
Action = Union[None, Render, Resync]


def _frame_of(snapshot: pb.ScreenState) -> Frame:
    return Frame(
        screen=snapshot.screen_id, epoch=snapshot.epoch, seq=snapshot.seq,
        layout=snapshot.layout,
        focused=snapshot.focused if snapshot.HasField("focused") else None,
        states={item.id: item.state for item in snapshot.states},
        text=dict(snapshot.text),
        pointer=snapshot.pointer if snapshot.HasField("pointer") else None,
        snapshot=True,
        # A snapshot carries no effects but the virtual items its app is asked for.
        effects=[pb.FocusEffect(items_in_view=wanted) for wanted in snapshot.items_in_view],
    )


def _merge(frame: Frame, delta: pb.StateDelta) -> Frame:
    states = dict(frame.states)
    for item in delta.changed:
        states[item.id] = item.state
    text = dict(frame.text)
    text.update(delta.text)
    return replace(
        frame, seq=delta.seq, states=states, text=text, snapshot=False,
        focused=delta.focused if delta.HasField("focused") else None,
        effects=list(delta.effects),
        pointer=delta.pointer if delta.HasField("pointer") else frame.pointer,
    )


class StateSync:
    """The Clone pattern's screen side as a pure machine."""

    def __init__(self, screen: str):
        self.screen = screen
        self.frame: Optional[Frame] = None
        self.awaiting_snapshot = True
        self.pending: List[pb.StateDelta] = []

    def snapshot_requested(self) -> None:
        """Marks that a snapshot has been asked for."""
        self.awaiting_snapshot = True

    def apply_snapshot(self, snapshot: pb.ScreenState) -> Action:
        """Applies a snapshot (a reply, or one published after a layout change), then the
        buffered deltas that follow it."""
        if snapshot.screen_id != self.screen:
            return None
        current = self.frame
        if (current is not None and not self.awaiting_snapshot
                and snapshot.epoch == current.epoch and snapshot.seq <= current.seq):
            return None  # Older than (or the published copy of) what is shown.
        frame = _frame_of(snapshot)
        buffered, self.pending = self.pending, []
        self.awaiting_snapshot = False
        for delta in buffered:
            if delta.epoch != frame.epoch or delta.seq <= frame.seq:
                continue
            if delta.seq != frame.seq + 1:
                self.frame = frame
                return self._resync(f"gap after snapshot: have {frame.seq}, next is {delta.seq}")
            frame = _merge(frame, delta)
            frame.effects = []  # Effects before the snapshot was taken are not replayed.
        self.frame = frame
        return ("render", frame)

    def apply_delta(self, delta: pb.StateDelta) -> Action:
        """Applies a published delta, or asks for a snapshot on a gap or a new epoch."""
        if delta.screen_id and delta.screen_id != self.screen:
            return None
        current = self.frame
        if self.awaiting_snapshot or current is None:
            if len(self.pending) >= PENDING_LIMIT:
                self.pending.pop(0)
            self.pending.append(delta)
            return None
        if delta.epoch != current.epoch:
            self.pending = [delta]
            return self._resync(f"broker epoch changed from {current.epoch} to {delta.epoch}")
        if delta.seq <= current.seq:
            return None
        if delta.seq != current.seq + 1:
            self.pending = [delta]
            return self._resync(f"sequence gap: have {current.seq}, received {delta.seq}")
        self.frame = _merge(current, delta)
        return ("render", self.frame)

    def apply_heartbeat(self, epoch: int) -> Action:
        """A broker heartbeat: a new epoch means the broker restarted (or a standby took
        over) and the state shown may be gone."""
        if self.frame is None or self.awaiting_snapshot or self.frame.epoch == epoch:
            return None
        return self._resync(f"broker restarted (epoch {self.frame.epoch} -> {epoch})")

    def _resync(self, reason: str) -> Resync:
        self.awaiting_snapshot = True
        return ("resync", reason)
