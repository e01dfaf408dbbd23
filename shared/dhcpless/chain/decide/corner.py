"""The gate's corner values: a pause or a Secret name that looks like ours and is not (issue 24,
finding 8).

BMO pauses a host whatever the value of `baremetalhost.metal3.io/paused` (an empty one
included), and only the exact value `metal3.io/preprovisioning` is ours (DESIGN §3): a host
paused with `""`, with spaces around our value or in other letter case is paused for nobody
and would wait for ever without a word. A `spec.preprovisioningNetworkDataName` that is no
Secret name at all (`" "`) was answered 400 with no Event. Each gets one Warning that says
what to write; nothing else is done (a pause that is not exactly ours is never removed).
"""

from __future__ import annotations

from dhcpless import keys
from dhcpless.chain.actions import RecordEvent
from dhcpless.chain.predicates.on_host import bad_name, unclear_pause
from dhcpless.models import BareMetalHost
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef


def decide_pause(host: BareMetalHost) -> tuple[RecordEvent, ...]:
    """Pure: the Warning for an unclear pause (none for anyone else's value)."""
    value = unclear_pause(host)
    if value is None:
        return ()
    message = (
        f"annotation {keys.PAUSED_ANNOTATION} is {value!r}: BMO keeps the host paused for any "
        f"value, but only exactly {keys.PREPROVISIONING_PAUSE!r} is metal3-dhcpless's, so "
        f"nobody serves it; set it to {keys.PREPROVISIONING_PAUSE} to have its network data "
        "written, or remove it"
    )
    return (RecordEvent(HostRef.of(host), Reason.PAUSE_NOT_OURS, message),)


def decide_name(host: BareMetalHost, name: str) -> tuple[RecordEvent, ...]:
    problem = bad_name(name)
    if problem is None:
        return ()
    message = (
        f"spec.preprovisioningNetworkDataName {name!r} cannot name a Secret ({problem}); "
        "set it to the name of a Secret in the host's namespace, or remove it to have "
        "metal3-dhcpless write one"
    )
    return (RecordEvent(HostRef.of(host), Reason.SECRET_UNUSABLE, message),)
