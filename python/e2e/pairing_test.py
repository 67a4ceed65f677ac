#!/usr/bin/env python3
"""TenFoot pairing check: a Python remote pairs with a running CURVE broker by PIN (CPace), then
drives a screen as a CURVE client with its paired key.

Usage: pairing_test.py --pairing EP --control EP --state EP --screen ID [--broker-key=Z85]
                       [--name NAME] [--timeout S]

Uses the installed tenfoot package (tenfoot.Pairing, tenfoot.cpace, tenfoot.Control over CURVE).

Standard input: first the PIN the screens show (the script prints "pairing: waiting for the
PIN" once it asked for one), then key names (up, down, left, right, select), one per line, each
pressed and released as this remote; end of input ends the script. Before the right PIN it tries
a wrong one (the PIN plus one) and checks the broker's typed refusal and back-off. Prints one
line per check, "python: KEY -> focused ITEM" per key, and "pairing: PASS (N checks)" at the
end; exits 1 on the first failure.
"""

import argparse
import sys
import time

import zmq

import tenfoot
from interop_test import Checks
from tenfoot import cpace, pb


def expect_refusal(checks, what, call, code):
    """Runs `call`, which must raise the typed BrokerError `code`; returns it."""
    try:
        call()
    except tenfoot.BrokerError as error:
        checks.equal(f"{what}: error code", error.name, code)
        checks.true(f"{what}: message for people", len(error.message) > 0, "empty message")
        return error
    raise AssertionError(f"{what}: expected {code}, got an answer")


def read_line(what):
    line = sys.stdin.readline()
    if not line:
        raise AssertionError(f"standard input ended before {what}")
    return line.strip()


def run(arguments):
    checks = Checks()
    context = zmq.Context()
    timeout = arguments.timeout
    endpoints = tenfoot.Endpoints.of(arguments.control, arguments.state)
    keys = tenfoot.KeyPair.generate()

    # A key that is not on the allow-list: the CURVE handshake is refused (the broker answers
    # nothing), and the client's handshake monitor tells it as NotPaired.
    if arguments.broker_key:
        stranger = tenfoot.Control(context, endpoints, "remote:python-unpaired", 1.5,
                                   tenfoot.Curve(tenfoot.KeyPair.generate(), arguments.broker_key))
        try:
            stranger.call("welcome", hello=pb.Hello(role=pb.PEER_ROLE_REMOTE))
            raise AssertionError("an unpaired key got an answer on control")
        except tenfoot.NotPaired as refusal:
            checks.true("an unpaired key is refused in the CURVE handshake (ZAP), told as "
                        "NotPaired", "allow-list" in refusal.message, refusal.message)
        stranger.close()

    pairing = tenfoot.Pairing(context, arguments.pairing, keys.public_key, arguments.name,
                              timeout)
    probed = pairing.probe_key()
    if arguments.broker_key:
        checks.equal("probe: the broker's key", probed, arguments.broker_key)

    first = pairing.begin()
    checks.equal("challenge: PIN digits", first.digits, 6)
    checks.equal("challenge: the broker key is the probed one", first.broker_key_text, probed)
    checks.equal("challenge: nonce and share sizes", (len(first.nonce), len(first.share)),
                 (32, cpace.ELEMENT_BYTES))
    checks.true("challenge: expires", first.expires_in_ms > 0, first.expires_in_ms)
    print("pairing: waiting for the PIN", flush=True)
    pin = read_line("the PIN")
    checks.true("the PIN read is 6 digits", len(pin) == 6 and pin.isdigit(), pin)

    # A wrong PIN: PAIRING_FAILED and a 1 s back-off; the round is used up.
    wrong = f"{(int(pin) + 1) % 1_000_000:06d}"
    failed = expect_refusal(checks, "wrong PIN", lambda: pairing.attempt(wrong, first),
                            "ERROR_CODE_PAIRING_FAILED")
    checks.equal("wrong PIN: back-off 1 s", failed.retry_after_ms, 1000)
    # During the back-off even the right PIN is refused, and no new round is given.
    blocked = expect_refusal(checks, "the right PIN during the back-off",
                             lambda: pairing.attempt(pin, first), "ERROR_CODE_PAIRING_BACKOFF")
    checks.true("back-off: retry_after_ms within 1 s", 0 < blocked.retry_after_ms <= 1000,
                blocked.retry_after_ms)
    blocked = expect_refusal(checks, "next round during the back-off", pairing.next_round,
                             "ERROR_CODE_PAIRING_BACKOFF")
    time.sleep(blocked.retry_after_ms / 1000 + 0.05)
    # The used round stays used: a second proof in it is refused.
    expect_refusal(checks, "a second proof in a used round", lambda: pairing.attempt(pin, first),
                   "ERROR_CODE_NO_PAIRING")

    second = pairing.next_round()
    checks.true("next round: a new nonce and share", second.nonce != first.nonce
                and second.share != first.share, "same nonce or share")
    checks.equal("next round: same broker key", second.broker_key, first.broker_key)
    started = time.monotonic()
    peer_id = pairing.attempt(pin, second)  # Checks the broker's own confirmation too.
    elapsed_ms = (time.monotonic() - started) * 1000
    checks.true("paired: an allow-list id, the broker's confirmation verified", len(peer_id) > 0,
                peer_id)
    print(f"paired: this remote is {peer_id} (proof round trip {elapsed_ms:.1f} ms)", flush=True)
    expect_refusal(checks, "a proof after pairing", lambda: pairing.attempt(pin, second),
                   "ERROR_CODE_NO_PAIRING")
    pairing.close()

    # Paired: control and state as a CURVE client with this key pair.
    curve = tenfoot.Curve(keys, first.broker_key_text)
    remote = tenfoot.Control(context, endpoints, "remote:python", timeout, curve)
    welcome = remote.call("welcome", hello=pb.Hello(role=pb.PEER_ROLE_REMOTE,
                                                     client=f"tenfoot-interop-python {tenfoot.__version__}"))
    checks.true("CURVE control: welcome lists the screen", arguments.screen in welcome.screens,
                list(welcome.screens))
    state = tenfoot.ScreenSession(context, remote, arguments.screen, curve=curve)
    state.start(timeout)
    checks.true("CURVE state: snapshot of the screen", state.focused is not None, state.focused)

    key_codes = {"up": pb.KEY_UP, "down": pb.KEY_DOWN, "left": pb.KEY_LEFT, "right": pb.KEY_RIGHT,
            "select": pb.KEY_SELECT}
    for line in sys.stdin:
        name = line.strip()
        if name not in key_codes:
            raise AssertionError(f"unknown key {name!r} on standard input")
        acks = []
        for phase in (pb.KEY_PHASE_DOWN, pb.KEY_PHASE_UP):
            event = pb.KeyEvent(key=key_codes[name], phase=phase, timestamp_ns=time.monotonic_ns())
            acks.append(remote.call("ack", input=pb.Input(screen_id=arguments.screen, key=event)))
        state.wait_for_seq(acks[-1].state_seq)
        checks.equal(f"{name}: ack focus = the state socket's", acks[0].focused, state.focused)
        print(f"python: {name} -> focused {state.focused}", flush=True)

    state.close()
    remote.close()
    context.term()
    print(f"pairing: PASS ({checks.count} checks)", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairing", required=True)
    parser.add_argument("--control", required=True)
    parser.add_argument("--state", required=True)
    parser.add_argument("--screen", required=True)
    parser.add_argument("--broker-key", help="the broker's public key (Z85), expected; give it as "
                        "--broker-key=KEY, since a Z85 key may start with '-'")
    parser.add_argument("--name", default="python")
    parser.add_argument("--timeout", type=float, default=5.0)
    arguments = parser.parse_args()
    try:
        run(arguments)
    except (AssertionError, tenfoot.TenFootError) as failure:
        print(f"pairing: FAIL: {failure}", file=sys.stderr, flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
