"""What the Events say about a Secret the host names (issue 14, finding 4).

`spec.preprovisioningNetworkDataName` can name any Secret of the host's namespace, including
one the host's creator cannot read. If the Events on the host said "not found" for one name
and "fails rule X" for another, anyone who can read Events but not Secrets would learn which
Secrets exist (and something of their content). So for a Secret the host names, every reason
not to release — missing, no `networkData`, not network data, a rule failed — is one Warning
with one wording: `SecretUnusable`, naming the Secret (the name came from the host, not from
the Secret) and nothing read from it. Whoever can read the Secret can see what is wrong with it
against the rules README lists ("What Events say about a Secret"). Secrets we write under our
default name keep their detailed, redacted reasons (`render.redact`): the host's creator did not
choose them. `SecretMissing` is written only for our own Secret a released host lost and that
cannot be written again (`decide.repair`).
"""

from __future__ import annotations

from dhcpless.chain.actions import RecordEvent
from dhcpless.models import BareMetalHost
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef

UNUSABLE = (
    "is missing or does not hold network data this host can use; host stays paused (which of "
    "the two is not said, so these Events reveal nothing about a Secret the reader may not read)"
)

HOW = "`dhcpless status {}`, run by someone who may read the Secret, names the rule"
"""Where the Secret's owner learns the reason (`tools.status.explain`): said in the Event,
whose reader may or may not be allowed to follow it."""


def named_unusable(host: BareMetalHost, name: str) -> tuple[RecordEvent, ...]:
    """Pure: the one Warning for a host-named Secret that cannot be used, whatever the cause."""
    where = f"{host.namespace}/{host.name}"
    message = f"Secret {name} (spec.preprovisioningNetworkDataName) {UNUSABLE}; {HOW.format(where)}"
    return (RecordEvent(HostRef.of(host), Reason.SECRET_UNUSABLE, message),)
