"""Is an object with our name ours? Identity by the live host's UID (DESIGN §3 "identity").

A name says nothing about who made an object: a host deleted and re-created at once under the
same name finds its predecessor's terminating claim; `<bmh>-<pool>` of `rack1`+`ext-prov` and of
`rack1-ext`+`prov` are one name; anyone may write a Secret under our default name. So an object
is ours only with our labels for this host *and* the host's UID: in an ownerReference (same
namespace) or, where an ownerReference cannot point (another namespace: it would read as a
missing owner and be garbage-collected), in `keys.HOST_UID_ANNOTATION`. CAPM3 decides the same
way for its claims (`baremetal/metal3data_manager.go` `addressFromM3Claim`: a claim is used only
when one of its ownerReferences has the Metal3Data's UID; otherwise it requeues).
"""

from __future__ import annotations

from enum import StrEnum

from dhcpless import keys
from dhcpless.chain.actions import RecordEvent
from dhcpless.models.meta import ObjectMeta
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef


class Standing(StrEnum):
    """What an object with our name is to one host."""

    OURS = "ours"
    TERMINATING = "being deleted"
    FOREIGN = "not this host's"


def standing(meta: ObjectMeta, host: HostRef) -> Standing:
    """Pure. Ours (labels and UID, not being deleted), terminating (wait), or foreign (conflict).

    A terminating object is a reason to wait whoever owned it: it is going, and what it holds
    (an address, network data) goes with it."""
    if meta.deletion_timestamp:
        return Standing.TERMINATING
    return Standing.OURS if made_for(meta, host) else Standing.FOREIGN


def made_for(meta: ObjectMeta, host: HostRef) -> bool:
    """Our labels for this host and its UID, whether or not the object is being deleted."""
    return _labelled(meta, host) and carries_uid(meta, host)


def _labelled(meta: ObjectMeta, host: HostRef) -> bool:
    labels = meta.labels
    return (
        labels.get(keys.MANAGED_BY_LABEL) == keys.MANAGED_BY_VALUE
        and labels.get(keys.HOST_LABEL) == host.name
        and labels.get(keys.HOST_NAMESPACE_LABEL, host.namespace) == host.namespace
    )


def carries_uid(meta: ObjectMeta, host: HostRef) -> bool:
    """The host's UID in an ownerReference, or in our annotation across namespaces."""
    uid = host.uid
    if not uid:
        return False
    if any(o.uid == uid for o in meta.owner_references):
        return True
    across = (meta.namespace or host.namespace) != host.namespace
    return across and meta.annotations.get(keys.HOST_UID_ANNOTATION) == uid


def refusal(host: HostRef, what: str, meta: ObjectMeta) -> RecordEvent | None:
    """Pure. The Warning for an object with our name that is not ours (None: it is ours).

    The host stays paused either way: a terminating object's delete event re-drives it."""
    found = standing(meta, host)
    where = f"{what} {meta.namespace or host.namespace}/{meta.name}"
    if found is Standing.OURS:
        return None
    if found is Standing.TERMINATING:
        message = f"{where} is being deleted; waiting for it to go before claiming anew"
        return RecordEvent(host, Reason.WAITING_FOR_DELETION, message)
    reason = Reason.SECRET_CONFLICT if what == "Secret" else Reason.CLAIM_CONFLICT
    message = f"{where} exists and is not this host's (labels or owner UID differ); not used"
    return RecordEvent(host, reason, message)
