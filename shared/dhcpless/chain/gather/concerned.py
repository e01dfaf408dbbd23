"""The hosts a cause finds by reading, each with its cause as completed by those reads: a
Secret's users (the Secret read once, then known), a Metal3Data's borrower, a pool's hosts with
failed claims (as many as it has room for), the host whose claims have all answered (listed
once, then handed on). The cheap exits such an entry takes on what it read are taken here, as
each function took them when it read for itself. Reads only (`chain.pipeline.run` runs them).
"""

from __future__ import annotations

import logging
from dataclasses import replace

from dhcpless import keys, tracing
from dhcpless.chain.cause import (
    Cause,
    ClaimsAnswered,
    Entry,
    Key,
    Metal3DataMade,
    PoolChanged,
    SecretWritten,
)
from dhcpless.chain.gate import Gate, gate, secret_name
from dhcpless.chain.gather import ipam
from dhcpless.chain.gather.lookup import secret_or_none
from dhcpless.chain.predicates import on_host, ownership
from dhcpless.errors import Gone
from dhcpless.kube.api.client import Kube
from dhcpless.models import BareMetalHost, IPClaim, Secret

log = logging.getLogger(__name__)
Concerned = list[tuple[BareMetalHost | Key, Cause]]
"""Each host an entry concerns (as read, or by name: the pipeline reads it) and its cause."""


def concerned(kube: Kube, entry: Entry) -> Concerned:
    """The hosts `entry` concerns, each with its cause as completed by what was read."""
    match entry:
        case Metal3DataMade():
            return _borrowers(kube, entry)
        case SecretWritten():
            return _users(kube, entry)
        case ClaimsAnswered():
            return _answered(kube, entry)
        case PoolChanged():
            return _waiting_in(kube, entry)


def _borrowers(kube: Kube, made: Metal3DataMade) -> Concerned:
    """The host whose `spec.consumerRef` names the Metal3Machine the Metal3Data's claim is
    named after (CAPM3 `baremetal/metal3machine_manager.go` `AssociateM3Metadata` names the
    Metal3DataClaim after the Metal3Machine): one LIST of the namespace's hosts."""
    return [
        (h, made)
        for h in kube.list_hosts(made.namespace)
        if on_host.borrower_name(h) == made.claim and on_host.lendable(h)
    ]


def _users(kube: Kube, written: SecretWritten) -> Concerned:
    """The Secret (only its reference arrives: GET it), then the hosts using it. A Secret
    gone or without network data concerns nobody; its data is never logged."""
    secret = secret_or_none(kube, written.namespace, written.name)
    if secret is None or keys.NETWORK_DATA_KEY not in secret.data:
        where = f"{written.namespace}/{written.name}"
        log.info("Secret %s: gone or no network data, nothing to do", where)
        return []
    tracing.follow(secret.metadata.annotations)  # the trace of the chain that wrote it
    known = replace(written, secret=secret)
    return [(h, known) for h in hosts_using(kube, secret) if uses(h, secret)]


def uses(host: BareMetalHost, secret: Secret) -> bool:
    """Pure, on the host as read: paused for us and using this very Secret (named, or ours by
    default name). A host naming another Secret is not this event's business."""
    state = gate(host)
    if state is Gate.NAMED:
        return host.spec.preprovisioning_network_data_name == secret.metadata.name
    return state is Gate.WAITING and secret_name(host) == secret.metadata.name


def hosts_using(kube: Kube, secret: Secret) -> list[BareMetalHost]:
    """The host named by our label (one GET), else hosts of this namespace naming the Secret."""
    namespace = secret.metadata.namespace or "default"
    owner = secret.metadata.labels.get(keys.HOST_LABEL)
    if owner and secret.metadata.labels.get(keys.MANAGED_BY_LABEL) == keys.MANAGED_BY_VALUE:
        try:
            return [kube.get_host(namespace, owner)]
        except Gone:
            return []
    named = secret.metadata.name
    return [
        h for h in kube.list_hosts(namespace) if h.spec.preprovisioning_network_data_name == named
    ]


def _answered(kube: Kube, answered: ClaimsAnswered) -> Concerned:
    """Cheap exit: one label-scoped LIST of the host's claims. The event's claim must be
    there, answered, as listed, and name a host UID (events are hints: a stale or forged one
    stops here; without a UID it cannot be ours, `chain.identity`); while any other is
    unanswered (no address, no error) its own event will come, so only the last answer goes
    on, with the LIST handed to the pipeline (not read again)."""
    claim, owner = answered.claim, ownership.host_of(answered.claim)
    if owner is None:
        return []
    namespace = claim.metadata.namespace or "default"
    listed = kube.list_claims(namespace, ownership.selector(*owner))
    itself = [
        c
        for c in listed
        if c.metadata.name == claim.metadata.name and _answered_one(c) and _names_a_host(c)
    ]
    if not itself or not all(_answered_one(c) for c in listed):
        log.info("host %s/%s: a claim is not answered yet, nothing to do", *owner)
        return []
    return [(owner, replace(answered, listed=(namespace, listed)))]


def _answered_one(claim: IPClaim) -> bool:
    return claim.status.address is not None or bool(claim.status.error_message)


def _names_a_host(claim: IPClaim) -> bool:
    """Carries a host UID at all (an owner of the host's kind, or our annotation across
    namespaces): necessary for it to be ours; the pipeline checks it is this host's."""
    kinds = {o.kind for o in claim.metadata.owner_references}
    return "BareMetalHost" in kinds or keys.HOST_UID_ANNOTATION in claim.metadata.annotations


def _waiting_in(kube: Kube, changed: PoolChanged) -> Concerned:
    """The hosts with claims of the pool that IPAM failed retry them, at most as many as it
    has free addresses (`PoolChanged.room`), the longest waiting first."""
    pool, room = changed.pool, changed.room
    namespace, name = pool.metadata.namespace or "default", pool.metadata.name
    owners = ipam.failed_in_pool(kube, namespace, name)
    if room is not None and room < len(owners):
        log.info("IPPool %s/%s: %d free, retrying the %d waiting longest of %d",
                 namespace, name, room, room, len(owners))  # fmt: skip
        owners = owners[:room]
    return [(owner, changed) for owner in owners]
