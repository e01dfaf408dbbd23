"""A host we released that its manifest paused again: release it again at once, and say why.

`kubectl apply` and GitOps controllers (Argo CD, Flux) restore every field their manifest
carries: when a host's manifest has `baremetalhost.metal3.io/paused: metal3.io/preprovisioning`,
each re-apply after our release puts the pause back, and BMO stops reconciling the host
(README "Hosts in git"). Such a host is paused for us, names its Secret and carries our
released-at stamp: the usual release decision serves it again with the same Secret (never
rewritten: `decide._compare`) as soon as its event arrives: a host whose manifest holds the
pause, or that was re-paused before, is never marked done (`quiet`), and its release removes
a mark it carries, so its next re-pause reaches host-registration. This module adds the Event
that explains the loop and how to end it (`explain`).
"""

from __future__ import annotations

from dhcpless import keys
from dhcpless.chain.actions import Action, RecordEvent, ReleaseHost
from dhcpless.chain.gate import Gate, gate
from dhcpless.models import BareMetalHost
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef

MESSAGE = (
    f"the pause was put back after this host was released: its manifest carries "
    f"{keys.PAUSED_ANNOTATION}: {keys.PREPROVISIONING_PAUSE} and every apply restores it; "
    "released again with the same network data. To stop this, remove the annotation from the "
    "manifest: the admission policy in deploy/admission adds it on create only"
)


def repaused(host: BareMetalHost) -> bool:
    """Pure: paused for us again after we released it (it names its Secret, it has our stamp)."""
    return gate(host) is Gate.NAMED and keys.RELEASED_AT_ANNOTATION in host.annotations


def explain(host: BareMetalHost, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """The decision for `host`, plus the explanation when it releases a re-paused host."""
    if repaused(host) and any(isinstance(a, ReleaseHost) for a in actions):
        return (*actions, RecordEvent(HostRef.of(host), Reason.MANIFEST_REPAUSED, MESSAGE))
    return actions
