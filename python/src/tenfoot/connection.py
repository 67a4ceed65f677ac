"""Where a broker is: endpoints, connection strings and the local default.

The same rules as the Swift side (`Endpoints`, `ConnectionString`):

- A connection string is `tenfoot://KEY@HOST:PORT[,HOST:PORT...][/STATE/PAIRING]`: `KEY` is the
  broker's CURVE public key in base64url (43 characters), `PORT` the control port; state and
  pairing are the next two ports unless given. Several brokers are a zone: a client connects
  to all of them and talks to whichever is active.
- With no broker given, the local default is the `ipc://` sockets in the private runtime
  directory (`$TENFOOT_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/tenfoot`, else `/tmp/tenfoot-UID`).
"""

from __future__ import annotations

import base64
import binascii
import os
import stat
from dataclasses import dataclass
from typing import List, Optional, Tuple

from zmq.utils import z85

from .errors import ConnectionStringError

SCHEME = "tenfoot://"


@dataclass(frozen=True)
class Endpoints:
    """A broker's (or a zone's) control, state and pairing endpoints; `control` and `state`
    list every broker of a zone. `broker_key` is the broker's CURVE public key (Z85) when
    known (a connection string carries it)."""

    control: List[str]
    state: List[str]
    pairing: Optional[str] = None
    broker_key: Optional[str] = None

    @property
    def uses_tcp(self) -> bool:
        """Whether any endpoint crosses the network: then CURVE is required."""
        return any(e.startswith("tcp://") for e in self.control + self.state)

    @property
    def is_zone(self) -> bool:
        """Whether several brokers are listed (a zone: one active, the others standing by)."""
        return len(self.control) > 1

    @property
    def request_timeout(self) -> float:
        """Seconds to wait for one control reply before retrying, as the Swift screen does:
        0.4 s for a zone (a request may have gone to the lost broker), 1 s for one broker."""
        return 0.4 if self.is_zone else 1.0

    @property
    def heartbeat(self) -> Tuple[int, int]:
        """The ZMTP heartbeat (interval, timeout) in ms: 150/400 in a zone, 1000/5000 alone."""
        return (150, 400) if self.is_zone else (1000, 5000)

    @staticmethod
    def local(environment: Optional[dict] = None) -> "Endpoints":
        """The embedded local default: ipc:// sockets in the private runtime directory."""
        directory = runtime_directory(environment)
        return Endpoints(
            control=[f"ipc://{directory}/control"],
            state=[f"ipc://{directory}/state"],
            pairing=f"ipc://{directory}/pairing",
        )

    @staticmethod
    def of(control: str, state: str, pairing: Optional[str] = None,
           broker_key: Optional[str] = None) -> "Endpoints":
        """Explicit endpoints; `control` and `state` may be comma-separated lists (a zone)."""
        controls, states = split_list(control), split_list(state)
        if not controls or not states:
            raise ConnectionStringError("control and state endpoints must not be empty")
        for endpoint in controls + states + ([pairing] if pairing else []):
            check_endpoint(endpoint)
        return Endpoints(controls, states, pairing or pairing_for_control(controls[0]),
                         broker_key)


def split_list(text: str) -> List[str]:
    """The endpoints of a comma-separated list, blanks dropped."""
    return [part.strip() for part in text.split(",") if part.strip()]


def check_endpoint(endpoint: str) -> None:
    """Refuses an endpoint that is not tcp://HOST:PORT or ipc://PATH."""
    if endpoint.startswith("ipc://") and len(endpoint) > len("ipc://"):
        return
    if endpoint.startswith("tcp://"):
        host, _, port = endpoint[len("tcp://"):].rpartition(":")
        if host and (port == "*" or (port.isdigit() and 1 <= int(port) <= 65535)):
            return
    raise ConnectionStringError(
        f"{endpoint!r} is not an endpoint: use tcp://HOST:PORT or ipc://PATH")


def pairing_for_control(control: str) -> Optional[str]:
    """The pairing endpoint a control endpoint implies: tcp port + 2, or ipc DIR/pairing."""
    if control.startswith("tcp://"):
        host, _, port = control.rpartition(":")
        return f"{host}:{int(port) + 2}" if port.isdigit() else None
    if control.startswith("ipc://") and control.endswith("/control"):
        return control[: -len("control")] + "pairing"
    return None


def base64url_decode(text: str) -> Optional[bytes]:
    """The bytes of unpadded base64url `text`, or None if it is not base64url."""
    if any(c in "+/=" for c in text):
        return None
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


def base64url_encode(data: bytes) -> str:
    """`data` in unpadded base64url, as connection strings carry keys."""
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _port(text: str, what: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise ConnectionStringError(f"{what} is not HOST:PORT (a port from 1 to 65535)")
    return int(text)


def parse_connection_string(text: str) -> Endpoints:
    """The endpoints and broker key a `tenfoot://` line names (raises ConnectionStringError)."""
    if not text.startswith(SCHEME):
        raise ConnectionStringError("a connection string starts with tenfoot://")
    key_text, at, address = text[len(SCHEME):].partition("@")
    key = base64url_decode(key_text) if at else None
    if key is None or len(key) != 32:
        raise ConnectionStringError(
            "the part before @ must be the broker's public key in base64url (43 characters; "
            "tenfoot-broker invite prints the whole line)")
    parts = address.split("/")
    brokers = []
    for broker in parts[0].split(","):
        host, colon, port = broker.rpartition(":")
        if not colon or not host:
            raise ConnectionStringError(f"{broker} is not HOST:PORT (a port from 1 to 65535)")
        brokers.append((host, _port(port, broker)))
    state_port = pairing_port = None
    if len(parts) > 1:
        if len(parts) != 3 or not all(p.isdigit() and 1 <= int(p) <= 65535 for p in parts[1:]):
            raise ConnectionStringError(
                f"/{'/'.join(parts[1:])} must be /STATE_PORT/PAIRING_PORT (ports from 1 to 65535)")
        state_port, pairing_port = int(parts[1]), int(parts[2])
    control = [f"tcp://{host}:{port}" for host, port in brokers]
    state = [f"tcp://{host}:{state_port or port + 1}" for host, port in brokers]
    first_host, first_port = brokers[0]
    pairing = f"tcp://{first_host}:{pairing_port or first_port + 2}"
    return Endpoints(control, state, pairing, z85.encode(key).decode("ascii"))


def runtime_directory(environment: Optional[dict] = None) -> str:
    """The private runtime directory, created 0700 and refused if others can enter it."""
    env = os.environ if environment is None else environment
    if env.get("TENFOOT_RUNTIME_DIR"):
        path = env["TENFOOT_RUNTIME_DIR"]
    elif env.get("XDG_RUNTIME_DIR"):
        path = env["XDG_RUNTIME_DIR"] + "/tenfoot"
    else:
        path = f"/tmp/tenfoot-{os.getuid()}"
    os.makedirs(path, mode=0o700, exist_ok=True)
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise ConnectionStringError(
            f"{path} must be a directory of yours that others cannot enter (chmod 700 {path})")
    return path


def resolve(broker: Optional[str] = None, *, discover_timeout: float = 3.0) -> Endpoints:
    """The endpoints for `broker`: a connection string, a name announced on the local network
    (found with DNS-SD through Avahi), `$TENFOOT_BROKER` when None, else the local default."""
    broker = broker if broker is not None else os.environ.get("TENFOOT_BROKER") or None
    if broker is None:
        return Endpoints.local()
    if broker.startswith(SCHEME):
        return parse_connection_string(broker)
    if "://" in broker:
        raise ConnectionStringError(
            f"{broker!r}: give a tenfoot:// connection string or a broker name "
            "(Endpoints.of takes explicit endpoints)")
    from .discovery import find_broker  # Only a name needs Avahi.

    return find_broker(broker, timeout=discover_timeout)
