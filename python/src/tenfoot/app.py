"""The app model in Python: a screen app in a few lines.

An app owns a screen's layout and reacts to what happens on it (docs/apps.md): typed events
in, commands out (`patch`, `focus`, `replace_layout`). Handlers are registered with
decorators and return a command, a list of commands, or None:

    app = tenfoot.App(layout=...)

    @app.on_activated
    def opened(item, screen):
        return tenfoot.patch(...)

    app.run(broker, screen="main", attach=True)

As `ScreenClient` does in Swift, the commands answering one frame go to the broker as one
`AppReaction` carrying that frame's state seq, and a frame with an activation, back or home
always gets one (empty when no handler has anything to do): the broker holds the inputs that
follow such a frame until the app's reaction (at most 250 ms), so a remote's `select right`
after the app opens a page moves focus inside the page.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Union

import zmq

from .client import connect_settings, pin_after_answer
from .connection import Endpoints
from .control import Control
from .errors import BrokerError, Forbidden, TenFootError, Timeout
from .session import ScreenSession
from .sync import Frame
from .v1 import tenfoot_pb2 as pb

log = logging.getLogger("tenfoot.app")

EVENTS = ("joined", "resynced", "focus_changed", "activated", "selection_changed",
          "text_changed", "back", "home", "play_pause", "context_menu", "pointer",
          "items_in_view")
AWAITED = ("activated", "back", "home")


@dataclass(frozen=True)
class Event:
    """What happened on a screen: `kind` (one of EVENTS) and its arguments, in the order the
    handler takes them (e.g. ("weather",) for activated, (previous, next) for focus_changed)."""

    kind: str
    args: tuple = ()


class Screen:
    """A screen's state as an app sees it: read-only, the state after the event."""

    def __init__(self, frame: Frame):
        self.frame = frame

    @property
    def id(self) -> str:
        return self.frame.screen

    @property
    def layout(self) -> pb.Layout:
        """The layout as the broker has it, the app's patches included."""
        return self.frame.layout

    @property
    def focused(self) -> Optional[str]:
        return self.frame.focused

    @property
    def text(self) -> Dict[str, str]:
        return self.frame.text

    def item(self, id: str) -> Optional[pb.Item]:
        """The item with `id`, if the layout has one."""
        return next((each for each in self.frame.layout.items if each.id == id), None)

    def has_group(self, id: str) -> bool:
        """Whether a group with `id` is in the layout (a view the app opened, say)."""
        def search(groups) -> bool:
            return any(each.id == id or search(each.groups) for each in groups)
        return search(self.frame.layout.groups)


def events_in(frame: Frame, previous: Optional[Frame]) -> List[Event]:
    """The events a frame brings, in order (its effects, then a pointer change)."""
    events = []
    for effect in frame.effects:
        kind = effect.WhichOneof("kind")
        if kind == "focus_changed":
            change = effect.focus_changed
            events.append(Event(kind, (change.previous if change.HasField("previous") else None,
                                       change.next if change.HasField("next") else None)))
        elif kind in ("activated", "context_menu"):
            events.append(Event(kind, (getattr(effect, kind),)))
        elif kind == "play_pause":
            events.append(Event(kind, (effect.play_pause or None,)))
        elif kind == "selection_changed":
            events.append(Event(kind, (effect.selection_changed.id,
                                       effect.selection_changed.selected)))
        elif kind == "text_changed":
            events.append(Event(kind, (effect.text_changed.id, effect.text_changed.value)))
        elif kind in ("back", "home"):
            events.append(Event(kind))
        elif kind == "items_in_view" and effect.items_in_view.start < effect.items_in_view.end:
            wanted = effect.items_in_view
            events.append(Event(kind, (wanted.group, range(wanted.start, wanted.end))))
    if previous is not None and frame.pointer != previous.pointer:
        events.append(Event("pointer", (frame.pointer,)))
    return events


Commands = Union[None, pb.AppCommand, Sequence[pb.AppCommand]]


class App:
    """A TenFoot screen app. Register handlers with the `on_*` decorators (each takes the
    event's arguments, then the `Screen`), or subclass and override `react(event, screen)`."""

    def __init__(self, layout: Optional[pb.Layout] = None):
        self.layout = layout
        self.handlers: Dict[str, List[Callable]] = {kind: [] for kind in EVENTS}
        self.refusals: List[BrokerError] = []
        self.session: Optional[ScreenSession] = None
        self._stop = threading.Event()
        for kind in EVENTS:
            setattr(self, f"on_{kind}", self._decorator(kind))

    def _decorator(self, kind: str) -> Callable[[Callable], Callable]:
        def register(handler: Callable) -> Callable:
            self.handlers[kind].append(handler)
            return handler
        register.__doc__ = f"Registers a handler for `{kind}` events."
        return register

    def react(self, event: Event, screen: Screen) -> List[pb.AppCommand]:
        """The commands answering `event`: every handler for its kind, in order."""
        commands: List[pb.AppCommand] = []
        for handler in self.handlers[event.kind]:
            result = handler(*event.args, screen)
            if result is None:
                continue
            if isinstance(result, pb.AppCommand):
                commands.append(result)
            else:
                commands.extend(result)
        return commands

    def stop(self) -> None:
        """Ends `run()` (from any thread or a signal handler) within about a second."""
        self._stop.set()

    def run(self, broker: Union[str, Endpoints, None] = None, screen: str = "main", *,
            attach: bool = False, state_dir: Optional[str] = None,
            broker_key: Optional[str] = None, insecure: bool = False) -> None:
        """Runs the app on `screen` until `stop()`. `attach`: as its own process bound to a
        screen another process shows (the allow-list's `app` role; it puts its layout on that
        screen when it joins); else it is the screen itself (it registers its layout; show it
        with `tenfoot-screen --mirror`). Survives broker restarts and zone takeovers."""
        if not attach and self.layout is None:
            raise ValueError("this app has no layout of its own: run it with attach=True")
        endpoints, curve, trust = connect_settings(broker, "app", state_dir=state_dir,
                                                   broker_key=broker_key, insecure=insecure)
        context = zmq.Context()
        control = Control(context, endpoints, f"app:{screen}", curve=curve)
        session = ScreenSession(context, control, screen, app=True, curve=curve,
                                layout=None if attach else self.layout, beats=not attach)
        self.session = session
        previous: Optional[Frame] = None
        pinned = False
        try:
            for frame, resynced in self._frames(session):
                if not pinned:
                    pin_after_answer(trust, curve, endpoints)
                    pinned = True
                self._answer(control, frame, previous, resynced, attach)
                previous = frame
        finally:
            session.close()
            control.close()
            context.term()

    def _frames(self, session: ScreenSession):
        """The session's frames until `stop()`: the Clone start first (the subscription is
        live once a broker heartbeat came, then the snapshot), waiting for a broker that is not
        up yet, then every frame as it comes."""
        started = False
        while not started and not self._stop.is_set():
            try:
                yield from session.start(timeout=1.0)
                started = True
            except Timeout:
                # No heartbeat: the broker is not up yet, or it refused this key (the state
                # socket's handshake too): the control connection's handshake tells which.
                session.control.check_handshake()
                log.info("waiting for the broker at %s",
                         ",".join(session.control.endpoints.state))
        while not self._stop.is_set():
            yield from session.pump(0.25)

    def _answer(self, control: Control, frame: Frame, previous: Optional[Frame],
                resynced: bool, attach: bool) -> None:
        """Lets the handlers react to a frame and sends their commands as one reaction."""
        events = events_in(frame, previous)
        commands: List[pb.AppCommand] = []
        if previous is None:
            events.insert(0, Event("joined"))
            log.info("joined screen %s", frame.screen)
            if attach and self.layout is not None:
                commands.append(pb.AppCommand(replace_layout=self.layout))
        elif resynced:
            events.insert(0, Event("resynced"))
            log.info("resynced screen %s (epoch %d, seq %d)", frame.screen, frame.epoch,
                     frame.seq)
        screen = Screen(frame)
        for event in events:
            commands += self.react(event, screen)
        awaited = any(event.kind in AWAITED for event in events)
        if not commands and not awaited:
            return
        reaction = pb.AppReaction(screen_id=frame.screen, state_seq=frame.seq, commands=commands)
        try:
            control.call("ack", app_reaction=reaction)
        except BrokerError as refusal:
            self.refusals.append(refusal)
            log.warning("app reaction refused: %s", refusal)
        except Timeout as error:
            log.warning("app reaction not delivered: %s", error)

    def main(self, argv: Optional[Sequence[str]] = None) -> None:
        """Runs the app from the command line (`--broker`, `--attach`, `--id`, ...) until
        SIGINT or SIGTERM; exits 1 with the error's message when it fails."""
        parser = argparse.ArgumentParser(description="A TenFoot app.")
        add_connection_arguments(parser)
        parser.add_argument("--id", default="main", help="screen session id (default: main)")
        parser.add_argument("--attach", action="store_true",
                            help="run as its own process bound to a screen another shows")
        parser.add_argument("--print-key", action="store_true",
                            help="print this app's CURVE public key (for tenfoot-broker "
                            "remotes add --role app --screen ID) and exit")
        options = parser.parse_args(argv)
        if options.print_key:
            from .keys import ClientTrust, state_directory

            print(ClientTrust(state_directory("app", options.state_dir)).keys.public_key)
            return
        logging.basicConfig(level=options.log_level.upper(), stream=sys.stderr,
                            format="%(name)s: %(message)s")
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, lambda *_: self.stop())
        try:
            self.run(connection_from(options), options.id, attach=options.attach,
                     state_dir=options.state_dir, broker_key=options.broker_key,
                     insecure=options.insecure)
        except Forbidden as error:
            print(f"error: the broker refused: {error.message} (tenfoot-broker remotes add "
                  "--role app --screen ID binds an app's key to a screen)", file=sys.stderr)
            sys.exit(1)
        except (TenFootError, ValueError, OSError) as error:
            print(f"error: {error}", file=sys.stderr)
            sys.exit(1)


def add_connection_arguments(parser: argparse.ArgumentParser) -> None:
    """The connection options every TenFoot program takes."""
    parser.add_argument("--broker", help="connection string (tenfoot://...) or broker name; "
                        "default: $TENFOOT_BROKER, else the local ipc:// broker")
    parser.add_argument("--control", help="control endpoint(s), comma-separated for a zone")
    parser.add_argument("--state", help="state endpoint(s), comma-separated for a zone")
    parser.add_argument("--broker-key", help="the broker's CURVE public key (Z85); give it "
                        "as --broker-key=KEY, a Z85 key may start with '-'")
    parser.add_argument("--state-dir", help="directory for this program's keys")
    parser.add_argument("--insecure", action="store_true", help="plain tcp:// without CURVE")
    parser.add_argument("--log-level", default="info",
                        choices=["debug", "info", "warning", "error"])


def connection_from(options: argparse.Namespace) -> Union[str, Endpoints, None]:
    """The broker the connection options name."""
    if options.control or options.state:
        if not (options.control and options.state):
            raise SystemExit("error: --control and --state go together")
        return Endpoints.of(options.control, options.state)
    return options.broker
