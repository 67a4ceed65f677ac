"""TenFoot's typed errors: one hierarchy, rooted at `TenFootError`.

A broker refusal arrives as an `Error` message with a code; `BrokerError.from_wire` turns it
into the subclass named after the code (`UnknownScreen`, `Forbidden`, `NotPaired`, ...), so a
caller catches what it can handle and lets the rest through. Problems found on this side
(a reply that never came, a bad connection string, a key file others can read) have their own
classes. Every message says what is wrong and, where there is one, what to do.
"""

from __future__ import annotations

from .v1 import tenfoot_pb2 as pb


class TenFootError(Exception):
    """Every error this package raises."""


class Timeout(TenFootError, TimeoutError):
    """The broker did not answer within the bounded wait (it may be down or restarting)."""


class ConnectionStringError(TenFootError, ValueError):
    """A connection string (`tenfoot://KEY@HOST:PORT`) or endpoint is not well formed."""


class KeyFileError(TenFootError):
    """A key or pin file cannot be used (unreadable, wrong format, readable by others)."""


class NoBrokerKey(TenFootError):
    """A `tcp://` broker needs CURVE, and no broker key was given or pinned for it."""


class DiscoveryError(TenFootError):
    """A broker name could not be resolved on the local network."""


class PairingFailure(TenFootError):
    """Pairing could not go on; `kind` says why: "unusable challenge", "broker proof invalid",
    "broker key changed", "unexpected reply"."""

    def __init__(self, kind: str, detail: str = ""):
        self.kind = kind
        super().__init__(f"{kind}: {detail}" if detail else kind)


class ProtocolViolation(TenFootError):
    """The broker sent something the protocol does not allow (a wrong reply kind, bad frames)."""


class BrokerError(TenFootError):
    """The broker answered with a typed `Error`: `code` (the wire enum's number), `name`
    (e.g. "ERROR_CODE_UNKNOWN_SCREEN"), `message` for people, `retry_after_ms` for back-offs."""

    code_name = ""

    def __init__(self, code: int, message: str, retry_after_ms: int = 0):
        self.code = code
        self.name = pb.ErrorCode.Name(code) if code in pb.ErrorCode.values() else str(code)
        self.message = message
        self.retry_after_ms = retry_after_ms
        super().__init__(f"{self.name}: {message}")

    @staticmethod
    def from_wire(error: pb.Error) -> "BrokerError":
        """The subclass for `error`'s code (`BrokerError` itself for a code added later)."""
        cls = _BY_CODE.get(error.code, BrokerError)
        return cls(error.code, error.message, error.retry_after_ms)


def _refusal(code_name: str, doc: str) -> type:
    return type(
        "".join(part.title() for part in code_name.split("_")),
        (BrokerError,),
        {"__doc__": doc, "code_name": f"ERROR_CODE_{code_name}", "__module__": __name__},
    )


Malformed = _refusal("MALFORMED", "The broker could not decode what was sent.")
UnsupportedVersion = _refusal("UNSUPPORTED_VERSION", "The broker speaks another protocol.")
UnknownScreen = _refusal("UNKNOWN_SCREEN", "No screen session has this id (yet).")
InvalidLayout = _refusal("INVALID_LAYOUT", "A layout or patch was refused; the message says where.")
InvalidInput = _refusal("INVALID_INPUT", "An input event was refused.")
UnexpectedMessage = _refusal("UNEXPECTED_MESSAGE", "A body the broker does not take as a request.")
AmbiguousScreen = _refusal("AMBIGUOUS_SCREEN", "Input named no screen while several (or none) exist.")
UnknownTarget = _refusal("UNKNOWN_TARGET", "A focus request named no item or group.")
FocusUnavailable = _refusal("FOCUS_UNAVAILABLE", "The focus target cannot take focus.")
FocusTrapped = _refusal("FOCUS_TRAPPED", "The focus target is outside the group that traps focus.")
FocusAmbiguous = _refusal("FOCUS_AMBIGUOUS", "The focus target names both an item and a group.")
NoTextField = _refusal("NO_TEXT_FIELD", "Text input while no text field has focus.")
ScreenGone = _refusal("SCREEN_GONE", "The screen session was dropped (no screen kept it alive).")
NotPaired = _refusal("NOT_PAIRED", "This key is not (or no longer) on the broker's allow-list.")
PairingFailed = _refusal("PAIRING_FAILED", "Wrong PIN; retry_after_ms says when to try again.")
PairingBackoff = _refusal("PAIRING_BACKOFF", "Too many wrong PINs: wait retry_after_ms.")
NoPairing = _refusal("NO_PAIRING", "No pairing is in progress for this remote.")
RateLimited = _refusal("RATE_LIMITED", "Too many messages: the request was dropped.")
StoreUnavailable = _refusal("STORE_UNAVAILABLE", "The broker could not make the change durable.")
Forbidden = _refusal("FORBIDDEN", "This key's role may not do this, or not on this screen.")
PairingBusy = _refusal("PAIRING_BUSY", "Another remote's pairing is in progress.")
PairingClosed = _refusal("PAIRING_CLOSED", "Pairing is closed after too many wrong PINs.")
PartsRefused = _refusal("PARTS_REFUSED", "A message sent in parts was discarded: send it again.")

_BY_CODE = {
    pb.ErrorCode.Value(cls.code_name): cls
    for cls in BrokerError.__subclasses__()
}
