"""Finding a broker by name on the local network (DNS-SD `_tenfoot._tcp` over mDNS).

Uses Avahi's `avahi-browse` (package avahi-utils; avahi-daemon must run), the same daemon the
Swift programs ask. Anyone on the network can answer mDNS, so every TXT record is checked
(`parse_announcement`) and discovery supplies the address only: the CURVE handshake with the
broker key (from a connection string or pinned by pairing) is what proves the broker. An
answer whose fingerprint differs from the key pinned for its endpoint is never chosen.
"""

from __future__ import annotations

import ipaddress
import os
import re
import selectors
import shutil
import subprocess
import time
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional

from zmq.utils import z85

from .connection import Endpoints
from .errors import DiscoveryError

SERVICE_TYPE = "_tenfoot._tcp"


@dataclass(frozen=True)
class DiscoveredBroker:
    """A broker found on the network: instance name, IPv4 address and its checked record."""

    instance: str
    address: str
    name: str
    zone: str
    control_port: int
    state_port: int
    pairing_port: int
    fingerprint: str

    @property
    def endpoints(self) -> Endpoints:
        host = self.address
        return Endpoints([f"tcp://{host}:{self.control_port}"],
                         [f"tcp://{host}:{self.state_port}"],
                         f"tcp://{host}:{self.pairing_port}")


def fingerprint_of(key: str) -> str:
    """A broker key's short id (the first 4 bytes in hex), as its screens show it."""
    return z85.decode(key.encode("ascii"))[:4].hex()


def _unescape(text: str) -> str:
    """avahi-browse --parsable escapes bytes as \\DDD (decimal)."""
    raw = re.sub(rb"\\(\d{3})", lambda m: bytes([int(m.group(1))]),
                 text.encode("utf-8", "surrogateescape"))
    return raw.decode("utf-8", "replace")


def parse_announcement(entries: List[str]) -> Dict[str, str]:
    """Checks a TXT record's `key=value` strings; raises DiscoveryError on anything wrong."""
    fields: Dict[str, str] = {}
    for entry in entries:
        key, equals, value = entry.partition("=")
        if not equals or not key or not key.isascii() or not key.isprintable():
            raise DiscoveryError(f"malformed TXT entry {entry!r}")
        key = key.lower()
        if key in fields:
            raise DiscoveryError(f"duplicate TXT key {key}")
        fields[key] = value
    for key in ("txtvers", "proto", "name", "zone", "control", "state", "pairing", "fp"):
        if key not in fields:
            raise DiscoveryError(f"the TXT record has no {key}")
    if fields["txtvers"] != "1" or fields["proto"] != "1":
        raise DiscoveryError("unsupported record or protocol version")
    ports = [fields[k] for k in ("control", "state", "pairing")]
    if not all(p.isdigit() and 1 <= int(p) <= 65535 for p in ports) or len(set(ports)) != 3:
        raise DiscoveryError("the TXT record's ports are not three distinct ports")
    if not re.fullmatch(r"[0-9a-f]{8}", fields["fp"]):
        raise DiscoveryError("the TXT record's fingerprint is not 8 lowercase hex digits")
    if not fields["name"] or len(fields["name"].encode()) > 63:
        raise DiscoveryError("the TXT record's name is empty or longer than 63 bytes")
    return fields


def parse_browse_output(text: str, ipv4_of: Callable[[str], Optional[str]] = lambda _: None
                        ) -> List[DiscoveredBroker]:
    """The checked IPv4 answers in `avahi-browse --parsable --resolve` output (others are
    skipped: a forged or broken record never becomes an endpoint).

    avahi-browse resolves an answer browsed over IPv4 to any of its host's addresses, often
    the IPv6 link-local one (it has no option to ask for IPv4, unlike Avahi's API, which the
    Swift side calls with IPv4). For such an answer `ipv4_of` is asked for the host name's
    IPv4 address (`browse` passes `resolve_ipv4`); without one the answer is skipped."""
    found = []
    for line in text.splitlines():
        parts = line.split(";", 9)
        if len(parts) < 10 or parts[0] != "=" or parts[2] != "IPv4":
            continue
        entries = re.findall(r'"((?:[^"\\]|\\.)*)"', parts[9])
        try:
            fields = parse_announcement([_unescape(e) for e in entries])
        except DiscoveryError:
            continue
        if fields["control"] != parts[8]:
            continue  # The service's port must be the record's control port.
        address = parts[7] if _is_ipv4(parts[7]) else ipv4_of(parts[6])
        if address is None or not _is_ipv4(address):
            continue  # IPv4 only, as the Swift side: a link-local IPv6 needs a zone index.
        found.append(DiscoveredBroker(
            instance=_unescape(parts[3]), address=address, name=fields["name"],
            zone=fields["zone"], control_port=int(fields["control"]),
            state_port=int(fields["state"]), pairing_port=int(fields["pairing"]),
            fingerprint=fields["fp"]))
    return found


def _is_ipv4(text: str) -> bool:
    try:
        ipaddress.IPv4Address(text)
        return True
    except ValueError:
        return False


def resolve_ipv4(host: str, timeout: float = 2.0) -> Optional[str]:
    """`host`'s IPv4 address by mDNS (`avahi-resolve -4 -n`), or None if none came within
    `timeout` seconds."""
    try:
        answer = subprocess.run(["avahi-resolve", "-4", "-n", host], capture_output=True,
                                text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    for line in answer.stdout.splitlines():
        name, _, address = line.partition("\t")
        if name == host and _is_ipv4(address.strip()):
            return address.strip()
    return None


def choose(name: str, answers: List[DiscoveredBroker],
           pinned: Callable[[str], Optional[str]] = lambda _: None) -> DiscoveredBroker:
    """The one broker named `name` a client may connect to, by the Swift side's rules: a
    fingerprint that differs from the key pinned for its endpoint is never chosen, a paired
    answer wins, two different unpaired brokers of that name are refused as ambiguous."""
    named = [a for a in answers if name in (a.instance, a.name)]
    if not named:
        seen = ", ".join(sorted({a.instance for a in answers})) or "none"
        raise DiscoveryError(f"no broker named {name!r} answered (seen: {seen})")
    paired, unpaired, mismatched = [], [], []
    for answer in named:
        key = pinned(answer.endpoints.control[0])
        if key is None:
            unpaired.append(answer)
        elif fingerprint_of(key) == answer.fingerprint:
            paired.append(answer)
        else:
            mismatched.append(answer)
    if paired:
        return paired[0]
    distinct = sorted({a.endpoints.control[0] for a in unpaired})
    if len(distinct) > 1:
        raise DiscoveryError(f"several brokers are named {name!r} ({', '.join(distinct)}): "
                             "give a connection string instead")
    if unpaired:
        return unpaired[0]
    raise DiscoveryError(f"the broker named {name!r} announces another key than the one "
                         "pinned for it: refusing it")


SETTLE = 0.3  # After the first answer for a name, how long other answers may still come.


def browse(name: Optional[str] = None, timeout: float = 3.0,
           transcript: Optional[List[str]] = None) -> List[DiscoveredBroker]:
    """The brokers avahi-daemon finds within `timeout` seconds (resolved, checked). Given a
    `name`, it returns once an answer for that name came and `SETTLE` more seconds passed
    (another broker of that name would make the choice ambiguous), else at the timeout. A
    daemon that has just started has an empty cache, so answers are read as they come rather
    than from one `--terminate` listing of the cache. `transcript`, if given, receives every
    line avahi-browse wrote (its errors prefixed `stderr: `), to say why nothing was found."""
    if shutil.which("avahi-browse") is None:
        raise DiscoveryError("finding a broker by name needs avahi-browse (apt install "
                             "avahi-utils) and a running avahi-daemon; or give a "
                             "tenfoot:// connection string")
    browser = subprocess.Popen(
        ["avahi-browse", "--parsable", "--resolve", "--no-db-lookup", SERVICE_TYPE],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    found: List[DiscoveredBroker] = []
    deadline = time.monotonic() + timeout
    # Read the pipe's bytes as they come and split them into lines here: a buffered
    # `readline` would keep lines that came in one read (a daemon answering from its cache
    # prints several at once) where `select` no longer sees them.
    pending = b""
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(browser.stdout, selectors.EVENT_READ)
            while time.monotonic() < deadline:
                if not selector.select(deadline - time.monotonic()):
                    break
                chunk = os.read(browser.stdout.fileno(), 65536)
                if not chunk:
                    break  # avahi-browse ended (no daemon, say).
                *lines, pending = (pending + chunk).split(b"\n")
                text = [line.decode("utf-8", "replace") for line in lines]
                if transcript is not None:
                    transcript += text
                answers = parse_browse_output("\n".join(text), resolve_ipv4)
                found += answers
                if name is not None and any(name in (a.instance, a.name) for a in answers):
                    deadline = min(deadline, time.monotonic() + SETTLE)
    finally:
        browser.kill()
        _, error_bytes = browser.communicate()
        errors = error_bytes.decode("utf-8", "replace")
        if transcript is not None:
            transcript += [f"stderr: {line}" for line in errors.splitlines()]
    if not found and browser.returncode not in (0, -9) and errors.strip():
        raise DiscoveryError(f"avahi-browse failed: {errors.strip()}")
    return found


def find_broker(name: str, timeout: float = 3.0,
                pinned: Callable[[str], Optional[str]] = lambda _: None) -> Endpoints:
    """The endpoints of the broker named `name` on the local network."""
    transcript: List[str] = []
    answers = browse(name, timeout, transcript)
    try:
        return choose(name, answers, pinned).endpoints
    except DiscoveryError as error:
        if answers:
            raise
        said = "; ".join(transcript[-6:]) or "nothing"
        raise DiscoveryError(f"{error} within {timeout:g} s (avahi-browse said: {said})") \
            from None
