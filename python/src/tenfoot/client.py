"""What every TenFoot client does first: find the broker and decide on CURVE."""

from __future__ import annotations

import logging
from typing import Optional, Tuple, Union

from .connection import Endpoints, resolve
from .keys import ClientTrust, Curve, state_directory

log = logging.getLogger("tenfoot")


def connect_settings(broker: Union[str, Endpoints, None], program: str, *,
                     state_dir: Optional[str] = None, broker_key: Optional[str] = None,
                     insecure: bool = False) -> Tuple[Endpoints, Optional[Curve],
                                                      Optional[ClientTrust]]:
    """The endpoints for `broker` (a connection string, a broker name, Endpoints, or None for
    `$TENFOOT_BROKER` / the local default) and, for tcp:// unless `insecure`, the CURVE
    settings: this program's key pair from its state directory and the broker key (given, from
    the connection string, or pinned)."""
    endpoints = broker if isinstance(broker, Endpoints) else resolve(broker)
    if not endpoints.uses_tcp or insecure:
        if insecure and endpoints.uses_tcp:
            log.warning("plain tcp:// without CURVE: trusted networks only")
        return endpoints, None, None
    trust = ClientTrust(state_directory(program, state_dir))
    curve = trust.curve(",".join(endpoints.control), broker_key or endpoints.broker_key)
    return endpoints, curve, trust


def pin_after_answer(trust: Optional[ClientTrust], curve: Optional[Curve],
                     endpoints: Endpoints) -> None:
    """Pins the broker key once the broker answered over CURVE (it proved it holds the key),
    as the Swift programs do; a different pinned key is refused loudly."""
    if trust is None or curve is None:
        return
    control = ",".join(endpoints.control)
    if trust.pinned_key(control) != curve.broker_key:
        trust.pin(curve.broker_key, control)
