#!/usr/bin/env python3
"""TenFoot interop check: a screen and a remote written in Python, against a running broker.

Usage: interop_test.py --control ENDPOINT --state ENDPOINT [--timeout S]

Uses the installed tenfoot package (its protocol code generated from proto/ by
scripts/generate-python-proto): registers a layout as a screen, keeps the screen's state with
the Clone pattern (tenfoot.ScreenSession), drives it with key and touch events as a remote, and
checks every reply and every state it receives. Prints one line per check and "interop: PASS (N checks)";
exits 1 on the first failure. Needs a broker with no other screen sessions (the empty screen id
check relies on it).
"""

import argparse
import sys
import time

import zmq

import tenfoot
from tenfoot import pb

SCREEN = "py-interop"


class Checks:
    def __init__(self):
        self.count = 0

    def equal(self, what, actual, expected):
        if actual != expected:
            raise AssertionError(f"{what}: expected {expected!r}, got {actual!r}")
        self.count += 1
        print(f"ok {self.count} - {what}", flush=True)

    def true(self, what, condition, detail=""):
        if not condition:
            raise AssertionError(f"{what}: {detail}")
        self.count += 1
        print(f"ok {self.count} - {what}", flush=True)


def grid_layout(rows, columns, unavailable=(), selected=()):
    """A rows x columns grid of 300x200 cards, ids r<row>c<column>, focus starting at r0c0."""
    layout = pb.Layout(canvas=pb.Size(width=1920, height=1080), initial_focus="r0c0")
    for row in range(rows):
        for column in range(columns):
            item_id = f"r{row}c{column}"
            layout.items.add(
                id=item_id,
                title=f"Row {row} Col {column}",
                frame=pb.Rect(x=100 + column * 340, y=100 + row * 240, width=300, height=200),
                unavailable=item_id in unavailable,
                selected=item_id in selected,
            )
    return layout


def layout_summary(layout):
    """The parts of a layout this client sets; the broker may fill in fields added later."""
    return (
        (layout.canvas.width, layout.canvas.height),
        layout.initial_focus,
        [(item.id, item.title, (item.frame.x, item.frame.y, item.frame.width, item.frame.height),
          item.unavailable, item.selected) for item in layout.items],
    )


def expect_error(checks, what, reply, code):
    kind = reply.WhichOneof("body")
    checks.true(what, kind == "error", f"expected an Error, got {kind}")
    checks.equal(f"{what}: code", pb.ErrorCode.Name(reply.error.code), pb.ErrorCode.Name(code))
    checks.true(f"{what}: message for people", len(reply.error.message) > 0, "empty message")


def run(arguments):
    checks = Checks()
    context = zmq.Context()
    timeout = arguments.timeout
    endpoints = tenfoot.Endpoints.of(arguments.control, arguments.state)

    # The screen: hello, subscribe, register, snapshot.
    screen = tenfoot.Control(context, endpoints, "screen:python", timeout)
    welcome = screen.call("welcome", hello=pb.Hello(role=pb.PEER_ROLE_SCREEN,
                                                     client=f"tenfoot-interop-python {tenfoot.__version__}"))
    checks.equal("welcome speaks protocol 1", welcome.protocol_version, 1)
    checks.true("welcome has an epoch", welcome.epoch > 0, f"epoch {welcome.epoch}")
    checks.true("broker names itself", welcome.broker.startswith("tenfoot-broker"), welcome.broker)

    state = tenfoot.ScreenSession(context, screen, SCREEN)
    layout = grid_layout(2, 3, unavailable={"r0c1"})
    ack = screen.call("ack", register_screen=pb.RegisterScreen(screen_id=SCREEN, layout=layout))
    checks.equal("register: ack names the screen", ack.screen_id, SCREEN)
    checks.equal("register: initial focus", ack.focused, "r0c0")
    state.start(timeout)
    checks.equal("snapshot: epoch is the welcome's", state.epoch, welcome.epoch)
    checks.equal("snapshot: focus", state.focused, "r0c0")
    checks.equal("snapshot: every item has a state", sorted(state.states),
                 sorted(item.id for item in layout.items))
    checks.equal("snapshot: r0c0 focused", state.state_name("r0c0"), "FOCUS_DISPLAY_STATE_FOCUSED")
    checks.equal("snapshot: r0c1 unavailable", state.state_name("r0c1"),
                 "FOCUS_DISPLAY_STATE_UNAVAILABLE")
    checks.equal("snapshot: r1c0 unfocused", state.state_name("r1c0"),
                 "FOCUS_DISPLAY_STATE_UNFOCUSED")
    checks.equal("snapshot: layout round-trips (the fields this client set)",
                 layout_summary(state.frame.layout), layout_summary(layout))

    # The remote.
    remote = tenfoot.Control(context, endpoints, "remote:python", timeout)
    welcome = remote.call("welcome", hello=pb.Hello(role=pb.PEER_ROLE_REMOTE,
                                                     client=f"tenfoot-interop-python {tenfoot.__version__}"))
    checks.true("welcome lists the screen", SCREEN in welcome.screens, list(welcome.screens))

    def press(key, phase=pb.KEY_PHASE_DOWN, screen_id=SCREEN):
        event = pb.KeyEvent(key=key, phase=phase, timestamp_ns=time.monotonic_ns())
        before = len(state.effects)
        ack = remote.call("ack", input=pb.Input(screen_id=screen_id, key=event))
        state.wait_for_seq(ack.state_seq)
        checks.equal(f"{pb.Key.Name(key)} {pb.KeyPhase.Name(phase)}: ack focus = applied state",
                     ack.focused, state.focused)
        checks.equal(f"{pb.Key.Name(key)} {pb.KeyPhase.Name(phase)}: ack effects = delta effects",
                     list(ack.effects), state.effects[before:])
        return ack

    def tap(key, screen_id=SCREEN):
        """A whole press, as a real remote sends it: down, then up; returns the down's ack."""
        ack = press(key, screen_id=screen_id)
        press(key, pb.KEY_PHASE_UP, screen_id=screen_id)
        return ack

    seq = state.seq
    ack = press(pb.KEY_RIGHT)
    checks.equal("right skips the unavailable item", state.focused, "r0c2")
    checks.equal("right: state seq advanced by one", ack.state_seq, seq + 1)
    change = ack.effects[0].focus_changed
    checks.equal("right: focus update context", (change.previous, change.next,
                                                  pb.Heading.Name(change.heading)),
                 ("r0c0", "r0c2", "HEADING_RIGHT"))
    checks.equal("right: r0c0 unfocused", state.state_name("r0c0"), "FOCUS_DISPLAY_STATE_UNFOCUSED")

    ack = press(pb.KEY_RIGHT, pb.KEY_PHASE_UP)
    checks.equal("key up of an arrow changes nothing", ack.state_seq, seq + 1)

    ack = tap(pb.KEY_RIGHT)
    checks.equal("right at the edge: focus stays", state.focused, "r0c2")
    checks.equal("right at the edge: the bump effect",
                 [effect.WhichOneof("kind") for effect in ack.effects], ["movement_failed"])
    checks.equal("right at the edge: bump heading", pb.Heading.Name(ack.effects[0].movement_failed),
                 "HEADING_RIGHT")

    tap(pb.KEY_DOWN)
    checks.equal("down", state.focused, "r1c2")
    press(pb.KEY_SELECT, pb.KEY_PHASE_DOWN)
    checks.equal("select down: highlighted", state.state_name("r1c2"),
                 "FOCUS_DISPLAY_STATE_HIGHLIGHTED")
    ack = press(pb.KEY_SELECT, pb.KEY_PHASE_UP)
    kinds = [effect.WhichOneof("kind") for effect in ack.effects]
    checks.true("select up: activated and selection changed",
                "activated" in kinds and "selection_changed" in kinds, kinds)
    checks.equal("select up: focused again", state.state_name("r1c2"), "FOCUS_DISPLAY_STATE_FOCUSED")
    tap(pb.KEY_LEFT, screen_id="")
    checks.equal("input without a screen id goes to the only session", state.focused, "r1c1")
    checks.equal("left: the toggled item shows selected", state.state_name("r1c2"),
                 "FOCUS_DISPLAY_STATE_SELECTED")
    seq = state.seq
    ack = tap(pb.KEY_VOLUME_UP)
    checks.equal("a key with no focus meaning is acknowledged and changes nothing",
                 ack.state_seq, seq)

    # A late joiner sees the same state.
    other = tenfoot.Control(context, endpoints, "screen:python-mirror", timeout)
    mirror = tenfoot.ScreenSession(context, other, SCREEN)
    mirror.start(timeout)
    checks.equal("late joiner: same seq", mirror.seq, state.seq)
    checks.equal("late joiner: same focus", mirror.focused, state.focused)
    checks.equal("late joiner: same item states", mirror.states, state.states)

    # A lost delta: the mirror drops the next one, sees the gap, resyncs by snapshot.
    mirror.drop_next_delta = True
    tap(pb.KEY_UP)
    checks.equal("up from r1c1: the only item above is unavailable, so it bumps",
                 state.focused, "r1c1")
    tap(pb.KEY_RIGHT)
    checks.equal("right from r1c1", state.focused, "r1c2")
    mirror.wait_for_seq(state.seq)
    checks.true("lost delta: the gap triggered a resync", any("gap" in r for r in
                                                                mirror.resyncs), mirror.resyncs)
    checks.equal("lost delta: same state after resync", (mirror.seq, mirror.focused,
                                                         mirror.states),
                 (state.seq, state.focused, state.states))

    # Replacing the layout publishes a snapshot on the state socket.
    new_layout = grid_layout(1, 2)
    ack = screen.call("ack", register_screen=pb.RegisterScreen(screen_id=SCREEN, layout=new_layout))
    state.wait_for_seq(ack.state_seq)
    checks.equal("layout replaced: published snapshot applied", sorted(state.states),
                 ["r0c0", "r0c1"])
    checks.equal("layout replaced: focus recovered", state.focused, ack.focused)

    # A touch swipe (Siri Remote surface): slow samples to the right, then lift-off at rest.
    tap(pb.KEY_LEFT)
    checks.equal("before the swipe", state.focused, "r0c0")
    start = time.monotonic_ns()

    def touch(phase, x, at_ms):
        event = pb.TouchEvent(phase=phase, x=x, y=0.0, timestamp_ns=start + int(at_ms * 1e6))
        ack = remote.call("ack", input=pb.Input(screen_id=SCREEN, touch=event))
        state.wait_for_seq(ack.state_seq)
        return ack

    touch(pb.TOUCH_PHASE_BEGAN, -0.6, 0)
    for step in range(1, 41):
        touch(pb.TOUCH_PHASE_MOVED, -0.6 + step * 0.02, step * 8.33)
    touch(pb.TOUCH_PHASE_MOVED, 0.2, 500)
    ack = touch(pb.TOUCH_PHASE_ENDED, 0.2, 600)
    checks.equal("a swipe right moves focus right", state.focused, "r0c1")
    checks.equal("the swipe's ack agrees with the applied state", ack.focused, state.focused)

    # Programmatic focus, the debugger and text input (the focus engine's requests).
    ack = screen.call("ack", focus_request=pb.FocusRequest(screen_id=SCREEN, item="r0c0"))
    state.wait_for_seq(ack.state_seq)
    checks.equal("focus request: focus moved", (ack.focused, state.focused), ("r0c0", "r0c0"))
    expect_error(checks, "focus request for an unknown item", screen.request(
        focus_request=pb.FocusRequest(screen_id=SCREEN, item="nope")),
        pb.ERROR_CODE_UNKNOWN_TARGET)
    report = screen.call("debug_report", debug_request=pb.DebugRequest(screen_id=SCREEN,
                                                                        explain_item="r0c1"))
    checks.true("debugger explains an item", "r0c1" in report.text, report.text)
    expect_error(checks, "text while no text field has focus", remote.request(
        input=pb.Input(screen_id=SCREEN, text=pb.TextInput(append="hi"))),
        pb.ERROR_CODE_NO_TEXT_FIELD)

    # Heartbeats carry the epoch.
    state.pump_until(lambda s: s.heartbeats, "a broker heartbeat")
    checks.equal("heartbeat carries the epoch", state.heartbeats[-1], welcome.epoch)

    # Typed errors; the broker keeps serving.
    key = pb.KeyEvent(key=pb.KEY_RIGHT, phase=pb.KEY_PHASE_DOWN)
    expect_error(checks, "unknown screen", remote.request(
        input=pb.Input(screen_id="nope", key=key)), pb.ERROR_CODE_UNKNOWN_SCREEN)
    expect_error(checks, "unspecified key", remote.request(
        input=pb.Input(screen_id=SCREEN, key=pb.KeyEvent(phase=pb.KEY_PHASE_DOWN))),
        pb.ERROR_CODE_INVALID_INPUT)
    expect_error(checks, "input without an event", remote.request(
        input=pb.Input(screen_id=SCREEN)), pb.ERROR_CODE_INVALID_INPUT)
    expect_error(checks, "welcome is not a request", remote.request(
        welcome=pb.Welcome()), pb.ERROR_CODE_UNEXPECTED_MESSAGE)
    duplicate = grid_layout(1, 2)
    duplicate.items[1].id = "r0c0"
    expect_error(checks, "duplicate item ids", screen.request(register_screen=pb.RegisterScreen(
        screen_id="py-bad", layout=duplicate)), pb.ERROR_CODE_INVALID_LAYOUT)
    envelope = remote.envelope(hello=pb.Hello(role=pb.PEER_ROLE_REMOTE))
    envelope.protocol_version = 99
    remote.send_raw(envelope.SerializeToString())
    expect_error(checks, "protocol version 99", remote.receive(envelope.seq),
                 pb.ERROR_CODE_UNSUPPORTED_VERSION)
    remote.send_raw(b"\xff\xff\xff not protobuf")
    expect_error(checks, "bytes that are not an Envelope", remote.receive(0),
                 pb.ERROR_CODE_MALFORMED)
    remote.socket.send_multipart([b"one", b"two"])
    expect_error(checks, "two frames", remote.receive(0), pb.ERROR_CODE_MALFORMED)
    ack = tap(pb.KEY_RIGHT)
    checks.equal("still serving after bad input", state.focused, ack.focused)

    for connection in (mirror, other, state, remote, screen):
        connection.close()
    context.term()
    print(f"interop: PASS ({checks.count} checks)", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--control", required=True)
    parser.add_argument("--state", required=True)
    parser.add_argument("--timeout", type=float, default=5.0)
    arguments = parser.parse_args()
    try:
        run(arguments)
    except (AssertionError, tenfoot.TenFootError) as failure:
        print(f"interop: FAIL: {failure}", file=sys.stderr, flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
