"""`chain.decide.reclaim`: a released host keeps the claims recorded at release. A claim of
ours that is gone is made again with a `ClaimDeleted` Warning, on its DELETE event or, when
that event was lost, on a resync tick; anything else under the name is reported, never used.
What is made again comes from the record on the host's own Secret, in the host's namespace,
never from the hint on the host (issue 24, finding 4), and asks for the recorded address."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from dhcpless import keys
from dhcpless.chain.actions import Action, CreateIPClaim, RecordEvent, ReleaseHost, WriteSecret
from dhcpless.chain.decide import decide, reclaim
from dhcpless.chain.decide.release import decide_release
from dhcpless.chain.facts import HostFacts, Occasion, taken_key
from dhcpless.chain.gate import gate
from dhcpless.chain.objects import claim_object, secret_object
from dhcpless.chain.patches import CLAIMED_PATH, release_patch
from dhcpless.chain.predicates import ownership
from dhcpless.models import BareMetalHost, IPClaim, Secret
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef
from tests.support import objects

UID = "uid-now"
RECORD = "ns/p1,ns/p2"
RELEASED = {keys.RELEASED_AT_ANNOTATION: "2026-01-01T00:00:00Z"}
LABELS = {keys.HOST_LABEL: "h", keys.HOST_NAMESPACE_LABEL: "ns",
          keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE}  # fmt: skip


def host(annotations: dict[str, str] | None = None, **meta: Any) -> BareMetalHost:
    found = (
        RELEASED | {keys.CLAIMED_POOLS_ANNOTATION: RECORD} if annotations is None else annotations
    )
    raw = {"name": "h", "namespace": "ns", "uid": UID, "annotations": found, **meta}
    spec = {"preprovisioningNetworkDataName": "h" + keys.SECRET_NAME_SUFFIX}
    return BareMetalHost.model_validate({"metadata": raw, "spec": spec})


def claim(pool: str, uid: str = UID, **meta: Any) -> IPClaim:
    owner = {"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost", "name": "h", "uid": uid}
    raw = {"name": f"h-{pool}", "namespace": "ns", "labels": LABELS, "ownerReferences": [owner]}
    spec = {"pool": {"name": pool, "namespace": "ns"}}
    return IPClaim.model_validate({"metadata": raw | meta, "spec": spec})


ADDRESSES = "p1=10.0.0.1,p2=10.0.0.2"


def own_secret(record: str = RECORD, uid: str = UID) -> Secret:
    """The released host's own Secret, as we wrote it: where the trusted record is."""
    ref = HostRef("ns", "h", uid)
    name = "h" + keys.SECRET_NAME_SUFFIX
    write = WriteSecret("ns", name, ref, "{}", claimed=record, addresses=ADDRESSES)
    return secret_object(write)


def tick(found: BareMetalHost, *held: IPClaim, secret: Secret | None = None) -> HostFacts:
    return HostFacts(found, Occasion.TICK, held=held, secret=secret or own_secret())


def shape(actions: tuple[Action, ...]) -> list[tuple[str, str]]:
    """(what, about) per action: the created claim's name, or the Event's reason."""
    return [
        (type(a).__name__, a.name if isinstance(a, CreateIPClaim) else a.reason.value)
        for a in actions
        if isinstance(a, CreateIPClaim | RecordEvent)
    ]


GONE = "h-p2"
DELETING = {"deletionTimestamp": "2026-01-02T00:00:00Z"}


@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        pytest.param(tick(host(), claim("p1")), [("CreateIPClaim", GONE),
                     ("RecordEvent", Reason.CLAIM_DELETED.value)], id="tick-missing-claim"),
        pytest.param(tick(host(), claim("p1"), claim("p2")), [], id="tick-both-there"),
        pytest.param(tick(host(), claim("p1"), claim("p2", "uid-old")),
                     [("RecordEvent", Reason.CLAIM_CONFLICT.value)], id="tick-someone-elses"),
        pytest.param(tick(host(), claim("p1"), claim("p2", **DELETING)),
                     [("RecordEvent", Reason.WAITING_FOR_DELETION.value)], id="tick-terminating"),
        pytest.param(replace(tick(host(), claim("p1")), taken={taken_key("IPClaim", GONE):
                     claim("p2", "uid-other")}), [("RecordEvent", Reason.CLAIM_CONFLICT.value)],
                     id="tick-create-found-someone-elses"),
        pytest.param(replace(tick(host(), claim("p1")), taken={taken_key("IPClaim", GONE):
                     claim("p2")}), [], id="tick-create-found-ours"),
        pytest.param(tick(host(RELEASED | {keys.CLAIMED_POOLS_ANNOTATION: RECORD,
                     keys.PAUSED_ANNOTATION: keys.PREPROVISIONING_PAUSE})), [],
                     id="paused-for-us-again"),
        pytest.param(tick(host({keys.CLAIMED_POOLS_ANNOTATION: RECORD})), [], id="never-released"),
        pytest.param(tick(host(deletionTimestamp="2026-01-02T00:00:00Z", finalizers=["x"])), [],
                     id="being-deleted"),
        pytest.param(tick(host(RELEASED), secret=own_secret("")), [],
                     id="released-before-the-record"),
        pytest.param(tick(host(RELEASED | {keys.CLAIMED_POOLS_ANNOTATION: "a/p1,b/p2"}),
                     secret=own_secret("a/p1,b/p2")), [],
                     id="record-naming-two-namespaces"),
        pytest.param(HostFacts(host(), held=None), [], id="event-without-a-delete"),
        pytest.param(HostFacts(host(RELEASED), gone=claim("p2")), [("CreateIPClaim", GONE),
                     ("RecordEvent", Reason.CLAIM_DELETED.value)], id="delete-event-no-record"),
        pytest.param(tick(host(), claim("p1"), secret=own_secret(uid="uid-forger")), [],
                     id="tick-secret-not-the-hosts"),
        pytest.param(replace(tick(host(), claim("p1")), secret=None), [],
                     id="tick-hint-without-our-secret"),
        pytest.param(tick(host(RELEASED | {keys.CLAIMED_POOLS_ANNOTATION: "ns/p1,ns/p2,ns/x"}),
                     claim("p1"), claim("p2")), [], id="tick-hint-naming-a-pool-we-never-claimed"),
        pytest.param(tick(host(RELEASED | {keys.CLAIMED_POOLS_ANNOTATION: "other/p1"}),
                     secret=own_secret("other/p1")), [], id="record-naming-another-namespace"),
        pytest.param(HostFacts(host(RELEASED), gone=claim("p2", "uid-old")), [],
                     id="delete-event-of-a-predecessors-claim"),
        pytest.param(replace(HostFacts(host(), gone=claim("p2")), taken={taken_key("IPClaim",
                     GONE): claim("p2")}), [], id="delete-event-again-after-reclaim"),
    ],
)  # fmt: skip
def test_reclaim(facts: HostFacts, expected: list[tuple[str, str]]) -> None:
    actions = reclaim.decide(facts)
    assert shape(decide(facts)) == expected or gate(facts.host).ours  # wired into `decide`
    assert shape(actions) == expected
    made = [a for a in actions if isinstance(a, CreateIPClaim)]
    assert all((a.namespace, a.pool, a.host.uid) == ("ns", "p2", UID) for a in made)


def test_the_record_goes_from_our_secret_to_the_release_patch() -> None:
    """Written on the Secret, copied onto the host by the one release patch (an annotation op;
    a labels map written whole only under the resourceVersion test: `chain.decide.quiet`)."""
    paused, record = waiting(), f"{objects.NS}/p1,{objects.NS}/p2"
    secret = secret_of(paused, record)
    release = next(a for a in decide_release(paused, secret) if isinstance(a, ReleaseHost))
    assert release.claimed == record
    ops = release_patch(release, "2026-01-01T00:00:00Z")
    assert {"op": "add", "path": CLAIMED_PATH, "value": record} in ops
    whole = any(op["path"] == "/metadata/labels" for op in ops)
    assert not whole or ops[1]["path"] == "/metadata/resourceVersion"
    assert ownership.parse(RECORD, "ns") == ("ns", ("p1", "p2"))
    assert ownership.parse(RECORD, "other") is None  # claims live in the host's namespace


@pytest.mark.parametrize(
    "text",
    [pytest.param("", id="none"), pytest.param("ns/", id="no-pool"),
     pytest.param("p1", id="no-namespace"), pytest.param("a/p1,b/p2", id="two-namespaces")],
)  # fmt: skip
def test_a_malformed_record_is_not_copied(text: str) -> None:
    paused = waiting()
    release = next(a for a in decide_release(paused, secret_of(paused, text))
                   if isinstance(a, ReleaseHost))  # fmt: skip
    assert release.claimed == ""
    assert not any(op["path"] == CLAIMED_PATH for op in release_patch(release, None))


def waiting() -> BareMetalHost:
    """A paused host with its boot MAC, as registered (`tests.support.objects`)."""
    raw = objects.host()
    raw["metadata"] |= {"uid": UID, "resourceVersion": "41"}
    return BareMetalHost.from_k8s(raw)


def secret_of(owner: BareMetalHost, record: str) -> Secret:
    """Our Secret for `owner`, valid network data, carrying `record`."""
    data = objects.VALID_NETWORK_DATA
    ref = HostRef.of(owner)
    name = owner.name + keys.SECRET_NAME_SUFFIX
    return secret_object(WriteSecret(owner.namespace, name, ref, data, claimed=record))


@pytest.mark.parametrize(
    "facts",
    [
        pytest.param(tick(host(), claim("p1")), id="tick"),
        pytest.param(HostFacts(host(), gone=claim("p2"), secret=own_secret()), id="delete-event"),
    ],
)
def test_a_reclaim_asks_for_the_recorded_address_back(facts: HostFacts) -> None:
    (made,) = [a for a in reclaim.decide(facts) if isinstance(a, CreateIPClaim)]
    assert (made.namespace, made.name, made.address) == ("ns", GONE, "10.0.0.2")
    assert made.host.uid == UID  # owned by the host: collected with it
    meta = claim_object(made).metadata
    assert meta.annotations[keys.REQUESTED_IP_ANNOTATION] == "10.0.0.2"
    assert [o.uid for o in meta.owner_references] == [UID]
