"""Hosts that slipped through: registered without the pre-provisioning pause.

BMO pauses a host on the annotation and does nothing else for it (baremetal-operator
`controllers/metal3.io/baremetalhost_controller.go`, `Reconcile`: the paused check comes
first); without it a new host is registered and inspected at once, and inspection cannot
succeed without DHCP: the host stays `inspecting` with no hint anywhere. The admission policy
of `deploy/admission/` prevents this; where it is absent, the user gets one Warning Event on
the first event that shows such a host (the Event's name is derived from the decision, so
redeliveries and later updates write nothing new: `kube.recorder`).

Scope: every host the functions see (their namespace), except one labelled
`keys.PREPROVISIONING_SCOPE_LABEL=disabled` (the same opt-out as the policy's). A host that
names its network data, is paused by anyone, was released by us, or is past inspection is fine.
"""

from __future__ import annotations

from dhcpless.chain.actions import Action, RecordEvent
from dhcpless.chain.predicates.on_host import slipped
from dhcpless.models import BareMetalHost
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef

MESSAGE = (
    "registered without the pre-provisioning pause: inspection needs static network data; "
    "delete and re-create it, or pause it and it will be served"
)


def decide_slipped(host: BareMetalHost) -> tuple[Action, ...]:
    """One Warning for a host that slipped through; nothing for any other."""
    if not slipped(host):
        return ()
    return (RecordEvent(HostRef.of(host), Reason.REGISTERED_UNPAUSED, MESSAGE),)
