"""TenFoot for Python: screen apps, remotes and pairing over the TenFoot protocol.

    import tenfoot
    app = tenfoot.App(layout=tenfoot.layout([...]))
    @app.on_activated
    def opened(item, screen): return tenfoot.patch(...)
    app.run("tenfoot://KEY@tv:7700", screen="main", attach=True)

    tenfoot.Remote(screen="main").press("right")

The protocol's messages are `tenfoot.pb` (generated from proto/ by
scripts/generate-python-proto). Errors are `tenfoot.errors` (all `TenFootError`).
"""

from . import errors
from .app import App, Event, Screen, events_in
from .connection import Endpoints, parse_connection_string, resolve
from .control import Control
from .errors import (BrokerError, ConnectionStringError, DiscoveryError, Forbidden,
                     KeyFileError, NoBrokerKey, NotPaired, PairingFailure, ProtocolViolation,
                     ScreenGone, TenFootError, Timeout, UnknownScreen)
from .keys import ClientTrust, Curve, KeyPair, state_directory
from .layout import (add_group, add_item, focus, group, item, layout, move_item, patch,
                     rect, remove_group, remove_item, replace_layout, set_item_available,
                     set_virtual_content, virtual_content, virtual_group)
from .pairing import Challenge, Pairing, pair
from .remote import PressResult, Remote
from .session import ScreenSession
from .sync import Frame, StateSync
from .v1 import tenfoot_pb2 as pb

__version__ = "0.1.0"

__all__ = [
    "App", "Event", "Screen", "events_in", "Endpoints", "parse_connection_string", "resolve",
    "Control", "errors", "BrokerError", "ConnectionStringError", "DiscoveryError", "Forbidden",
    "KeyFileError", "NoBrokerKey", "NotPaired", "PairingFailure", "ProtocolViolation",
    "ScreenGone", "TenFootError", "Timeout", "UnknownScreen", "ClientTrust", "Curve", "KeyPair",
    "state_directory", "add_group", "add_item", "focus", "group", "item", "layout",
    "move_item", "patch", "rect", "remove_group", "remove_item", "replace_layout",
    "set_item_available", "set_virtual_content", "virtual_content", "virtual_group", "Challenge", "Pairing", "pair", "PressResult", "Remote",
    "ScreenSession", "Frame", "StateSync", "pb", "__version__",
]
