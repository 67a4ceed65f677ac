"""A client's CURVE identity, kept where the Swift programs keep theirs.

The state directory is `$TENFOOT_STATE_DIR/<program>`, else `/var/lib/tenfoot/<program>` for
root, else `$XDG_STATE_HOME/tenfoot/<program>`, else `~/.local/state/tenfoot/<program>`
(mode 0700). In it, `key.json` holds the key pair (`{"version":1,"publicKey":Z85,
"secretKey":Z85}`, mode 0600) and `brokers.json` the broker keys pinned per control endpoint
(`{"version":1,"brokers":{ENDPOINT:Z85}}`): the same files `tenfoot-remote` and
`tenfoot-screen` read, so a Python remote may share a paired remote's directory.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from dataclasses import dataclass
from typing import Optional

import zmq
from zmq.utils import z85

from .errors import KeyFileError


def state_directory(program: str, explicit: Optional[str] = None,
                    environment: Optional[dict] = None) -> str:
    """`explicit`, else the default state directory for `program`; created 0700, checked."""
    env = os.environ if environment is None else environment
    if explicit:
        path = explicit
    else:
        if env.get("TENFOOT_STATE_DIR"):
            base = env["TENFOOT_STATE_DIR"]
        elif os.getuid() == 0:
            base = "/var/lib/tenfoot"
        elif env.get("XDG_STATE_HOME"):
            base = env["XDG_STATE_HOME"] + "/tenfoot"
        else:
            base = os.path.expanduser("~/.local/state/tenfoot")
        path = f"{base}/{program}"
    os.makedirs(path, mode=0o700, exist_ok=True)
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise KeyFileError(f"{path} must be a private directory of yours (chmod 700 {path})")
    return path


def _write_private(path: str, document: dict) -> None:
    directory = os.path.dirname(path)
    descriptor, scratch = tempfile.mkstemp(dir=directory, prefix=".tmp-")
    with os.fdopen(descriptor, "w") as handle:
        json.dump(document, handle)
    os.chmod(scratch, 0o600)
    os.replace(scratch, path)


def _read_json(path: str) -> Optional[dict]:
    try:
        with open(path) as handle:
            document = json.load(handle)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise KeyFileError(f"{path} is unreadable: {error}") from error
    if not isinstance(document, dict) or document.get("version") != 1:
        raise KeyFileError(f"{path}: unsupported format (expected version 1)")
    return document


def _is_z85_key(text: object) -> bool:
    if not isinstance(text, str) or len(text) != 40:
        return False
    try:
        return len(z85.decode(text.encode("ascii"))) == 32
    except (ValueError, KeyError, UnicodeEncodeError):
        return False


@dataclass(frozen=True)
class KeyPair:
    """A CURVE key pair, Z85 text."""

    public_key: str
    secret_key: str

    @staticmethod
    def generate() -> "KeyPair":
        """A fresh key pair from libzmq."""
        public, secret = zmq.curve_keypair()
        return KeyPair(public.decode("ascii"), secret.decode("ascii"))

    @staticmethod
    def load_or_create(path: str) -> "KeyPair":
        """The key pair in `path` (key.json), generated and written 0600 if missing; a file
        others can read is refused."""
        document = _read_json(path)
        if document is None:
            pair = KeyPair.generate()
            _write_private(path, {"version": 1, "publicKey": pair.public_key,
                                  "secretKey": pair.secret_key})
            return pair
        if os.stat(path).st_mode & 0o077:
            raise KeyFileError(f"{path} can be read by others: run chmod 600 {path}")
        public, secret = document.get("publicKey"), document.get("secretKey")
        if not (_is_z85_key(public) and _is_z85_key(secret)):
            raise KeyFileError(f"{path}: the keys are not 40-character Z85 CURVE keys")
        return KeyPair(public, secret)


@dataclass(frozen=True)
class Curve:
    """A CURVE client's settings: its key pair and the broker's public key (Z85)."""

    keys: KeyPair
    broker_key: str

    def apply(self, socket: zmq.Socket) -> None:
        """Makes `socket` a CURVE client of the broker (call before connecting)."""
        socket.curve_serverkey = self.broker_key.encode("ascii")
        socket.curve_publickey = self.keys.public_key.encode("ascii")
        socket.curve_secretkey = self.keys.secret_key.encode("ascii")


class ClientTrust:
    """A client's identity and pinned broker keys in its state directory."""

    def __init__(self, directory: str):
        self.directory = directory
        self.keys = KeyPair.load_or_create(os.path.join(directory, "key.json"))

    @property
    def brokers_path(self) -> str:
        return os.path.join(self.directory, "brokers.json")

    def pinned_key(self, control: str) -> Optional[str]:
        """The broker key pinned for the control endpoint, if any."""
        document = _read_json(self.brokers_path) or {"brokers": {}}
        return document.get("brokers", {}).get(control)

    def pin(self, key: str, control: str, replace: bool = False) -> None:
        """Pins `key` for `control`; refuses a different key than the pinned one unless
        `replace` (a broker whose key changed is not trusted silently)."""
        if not _is_z85_key(key):
            raise KeyFileError("a broker key is a 40-character Z85 CURVE key")
        document = _read_json(self.brokers_path) or {"version": 1, "brokers": {}}
        pinned = document["brokers"].get(control)
        if pinned not in (None, key) and not replace:
            raise KeyFileError(
                f"the broker at {control} is pinned with another key ({pinned}); "
                f"pair again, or remove it from {self.brokers_path}")
        document["brokers"][control] = key
        _write_private(self.brokers_path, document)

    def curve(self, control: str, broker_key: Optional[str]) -> Curve:
        """CURVE settings for the broker at `control`: `broker_key`, else the pinned one."""
        from .errors import NoBrokerKey

        key = broker_key or self.pinned_key(control)
        if key is None:
            raise NoBrokerKey(
                f"no broker key for {control}: give a tenfoot:// connection string, or pair "
                f"(tenfoot.pair) so the key is pinned in {self.directory}")
        if not _is_z85_key(key):
            raise KeyFileError("a broker key is a 40-character Z85 CURVE key")
        return Curve(self.keys, key)
