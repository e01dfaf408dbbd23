"""Perform actions through the adapter: idempotent, so redelivered events change nothing.

Creates treat `AlreadyExists` as done. The release is one JSON patch whose `test` ops make it
conditional (see `release_patch`); if someone changed the host since we read it, the API server
rejects the patch, the adapter raises PreconditionFailed (a Transient, 503) and the retry
re-reads and decides again.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from dhcpless import keys
from dhcpless.chain.actions import (
    Action,
    CreateIPAddressClaim,
    CreateIPClaim,
    DeleteIPClaim,
    LendClaim,
    NudgeClaim,
    RecordEvent,
    RecordPreAllocation,
    ReleaseHost,
    WriteSecret,
)
from dhcpless.errors import AlreadyExists, Gone, Transient
from dhcpless.kube import capm3, recorder
from dhcpless.kube.client import Kube
from dhcpless.kube.refs import HostRef
from dhcpless.models import BareMetalHost, IPAddressClaim, IPClaim, Secret
from dhcpless.web import Settings

log = logging.getLogger(__name__)


def act(actions: Sequence[Action], kube: Kube, settings: Settings, host: BareMetalHost) -> None:
    """Log the decision once (host and what it leads to, never Secret data), then do it."""
    summary = "; ".join(_summary(a) for a in actions) or "nothing to do"
    log.info("host %s/%s: %s", host.namespace, host.name, summary)
    done: list[bool] = []
    for action in actions:
        if isinstance(action, RecordEvent):
            continue
        if isinstance(action, ReleaseHost) and False in done:
            continue  # its Secret was there already: the writer of that one releases
        done.append(perform(action, kube, settings))
    twin = bool(done) and all(d is False for d in done)  # only AlreadyExists answers False
    for action in actions:
        if isinstance(action, RecordEvent) and not (twin and _progress(action)):
            perform(action, kube, settings)


def _progress(action: RecordEvent) -> bool:
    """A Normal (progress) Event. When every write found its object already there (a
    redelivered event, or a concurrent twin invocation), the first one reported the
    progress: repeating it would only add Events, so only Warnings are recorded again."""
    return action.reason.severity is recorder.Severity.NORMAL


def _summary(action: Action) -> str:
    match action:
        case CreateIPClaim():
            return f"claim {action.namespace}/{action.name}"
        case WriteSecret():
            return f"write Secret {action.namespace}/{action.name}"
        case ReleaseHost():
            return f"release with Secret {action.secret_name}"
        case RecordEvent():
            return f"{action.reason.severity} {action.reason}: {action.message}"
        case DeleteIPClaim():
            return f"delete claim {action.namespace}/{action.name}"
        case RecordPreAllocation():
            return f"pre-allocate {action.address} to {action.claim} in pool {action.pool}"
        case CreateIPAddressClaim():
            return f"claim {action.namespace}/{action.name} from {action.kind} {action.pool}"
        case LendClaim():
            return f"lend claim {action.namespace}/{action.name} to Metal3Data {action.data_name}"
        case NudgeClaim():
            return f"nudge claim {action.namespace}/{action.name} (its pool's Cluster exists now)"


def perform(action: Action, kube: Kube, settings: Settings) -> bool:
    """Do one action; False only when a create found its object there already (done)."""
    match action:
        case CreateIPClaim():
            created = _created(lambda: kube.create_claim(claim_object(action)))
            if not created:
                _check_existing(action, kube, settings)
            return created
        case CreateIPAddressClaim():
            return _created(lambda: kube.create_capi_claim(capi_claim_object(action)))
        case WriteSecret():
            return _created(lambda: kube.create_secret(secret_object(action, settings)))
        case ReleaseHost():
            now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            patch = release_patch(action, now)
            kube.patch_host(action.host.namespace, action.host.name, patch)
        case DeleteIPClaim():
            with contextlib.suppress(Gone):
                kube.delete_claim(action.namespace, action.name)
        case RecordPreAllocation():
            kube.patch_pool(action.namespace, action.pool, preallocation_patch(action))
        case LendClaim():
            capm3.patch_claim(kube, action.namespace, action.name, lend_patch(action))
        case NudgeClaim():
            capm3.patch_claim(kube, action.namespace, action.name, nudge_patch(action))
        case RecordEvent():
            if settings.record_events:
                recorder.record(
                    kube, action.host, action.reason, action.message, settings.component
                )
    return True


def _check_existing(action: CreateIPClaim, kube: Kube, settings: Settings) -> None:
    """A claim under our name was there: ours (a redelivery) is done; another host's, or one
    being deleted, is a Warning, never a success (DESIGN §3 "identity", `chain.identity`)."""
    from dhcpless.chain import identity  # identity builds RecordEvents: no import cycle

    try:
        existing = kube.get_claim(action.namespace, action.name)
    except Gone:
        raise Transient(f"IPClaim {action.namespace}/{action.name} there, then gone") from None
    refused = identity.refusal(action.host, "IPClaim", existing.metadata)
    if refused is not None:
        perform(refused, kube, settings)


def _created(create: Callable[[], object]) -> bool:
    try:
        create()
    except AlreadyExists:
        return False
    return True


def preallocation_patch(action: RecordPreAllocation) -> dict[str, Any]:
    """A merge patch adding one pre-allocation; the resourceVersion makes it conditional (409)."""
    return {
        "metadata": {"resourceVersion": action.resource_version},
        "spec": {"preAllocations": {action.claim: action.address}},
    }


def lend_patch(action: LendClaim) -> list[dict[str, Any]]:
    """The owners as read plus the Metal3Data (not as controller: CAPM3 checks only the UID,
    `addressFromM3Claim`), guarded by the resourceVersion the decision read."""
    data = {
        "apiVersion": f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}",
        "kind": "Metal3Data",
        "name": action.data_name,
        "uid": action.data_uid,
    }
    owners = [o.model_dump(by_alias=True, exclude_none=True) for o in action.owners]
    return [
        {"op": "test", "path": "/metadata/resourceVersion", "value": action.resource_version},
        {"op": "add", "path": "/metadata/ownerReferences", "value": [*owners, data]},
    ]


def nudge_patch(action: NudgeClaim) -> list[dict[str, Any]]:
    """`keys.NUDGED_ANNOTATION` = when (JSON patch cannot add into an absent map)."""
    if not action.has_annotations:
        value = {keys.NUDGED_ANNOTATION: action.at}
        return [{"op": "add", "path": "/metadata/annotations", "value": value}]
    path = f"/metadata/annotations/{_escape(keys.NUDGED_ANNOTATION)}"
    return [{"op": "add", "path": path, "value": action.at}]


def _escape(key: str) -> str:
    """JSON pointer escaping (RFC 6901) for annotation keys containing `/`."""
    return key.replace("~", "~0").replace("/", "~1")


PAUSE_PATH = f"/metadata/annotations/{_escape(keys.PAUSED_ANNOTATION)}"
NAME_PATH = "/spec/preprovisioningNetworkDataName"
RELEASED_AT_PATH = f"/metadata/annotations/{_escape(keys.RELEASED_AT_ANNOTATION)}"


def release_patch(action: ReleaseHost, released_at: str | None = None) -> list[dict[str, Any]]:
    """One request: it neither removes a pause someone else changed nor overwrites their name.

    Setting the name tests the resourceVersion we decided on (JSON patch cannot test absence);
    keeping a user's name tests that it is still that name. Both test our pause value.
    `released_at` (RFC 3339) is recorded in the same request, for hang detection (resync).
    It writes no label: a host is never "done" (CAPM3 may borrow its claims after any
    re-provisioning, `chain.lifecycle`), and a labels map written whole would drop labels
    someone added since we read the host (issue 14, finding 6).
    """
    stamp = [{"op": "add", "path": RELEASED_AT_PATH, "value": released_at}]
    guard = (
        [{"op": "test", "path": "/metadata/resourceVersion", "value": action.resource_version}]
        if action.set_name
        else [{"op": "test", "path": NAME_PATH, "value": action.secret_name}]
    )
    write_name = [{"op": "add", "path": NAME_PATH, "value": action.secret_name}]
    return [
        {"op": "test", "path": PAUSE_PATH, "value": keys.PREPROVISIONING_PAUSE},
        *guard,
        *(write_name if action.set_name else []),
        {"op": "remove", "path": PAUSE_PATH},
        *(stamp if released_at is not None else []),
    ]


def _uid(host: HostRef) -> dict[str, str]:
    """`keys.HOST_UID_ANNOTATION`: identity where no ownerReference can carry it."""
    return {keys.HOST_UID_ANNOTATION: host.uid} if host.uid else {}


def _labels(host: HostRef) -> dict[str, str]:
    return {
        keys.HOST_LABEL: host.name,
        keys.HOST_NAMESPACE_LABEL: host.namespace,
        keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE,
    }


def _owner(host: HostRef, namespace: str) -> list[dict[str, Any]]:
    """Owner reference to the host, only when in the same namespace (a cross-namespace owner
    reference reads as a missing owner and gets the object garbage-collected). Not a controller
    reference: we do not control the claim's lifecycle the way IPAM and CAPM3 do, and CAPM3
    refuses `<bmh>-<pool>` claims it does not own anyway (metal3.md §c.2), whatever we set."""
    if namespace != host.namespace or not host.uid:
        return []
    return [{"apiVersion": host.api_version, "kind": host.kind, "name": host.name, "uid": host.uid}]


def claim_object(action: CreateIPClaim) -> IPClaim:
    meta: dict[str, Any] = {
        "name": action.name, "namespace": action.namespace, "labels": _labels(action.host),
        "annotations": _uid(action.host),
    }  # fmt: skip
    if action.pools:  # what ipclaim-fulfilment's short path needs to count addresses
        meta["annotations"] |= {
            keys.CLAIM_TEMPLATE_ANNOTATION: action.template,
            keys.CLAIM_POOLS_ANNOTATION: ",".join(action.pools),
        }
    return IPClaim.model_validate(
        {
            "metadata": {**meta, "ownerReferences": _owner(action.host, action.namespace)},
            "spec": {"pool": {"name": action.pool, "namespace": action.namespace}},
        }
    )


def capi_claim_object(action: CreateIPAddressClaim) -> IPAddressClaim:
    """Owned by the host (released with it by garbage collection), our labels, no finalizer."""
    meta = {
        "name": action.name, "namespace": action.namespace, "labels": _labels(action.host),
        "annotations": _uid(action.host),
    }  # fmt: skip
    pool = {"apiGroup": action.api_group, "kind": action.kind, "name": action.pool}
    return IPAddressClaim.model_validate(
        {
            "metadata": {**meta, "ownerReferences": _owner(action.host, action.namespace)},
            "spec": {"poolRef": pool},
        }
    )


def secret_object(action: WriteSecret, settings: Settings | None = None) -> Secret:
    labels = {
        **_labels(action.host),
        keys.BMO_SECRET_LABEL: keys.BMO_SECRET_LABEL_VALUE,
        keys.WRITER_RELEASES_LABEL: keys.WRITER_RELEASES_VALUE,
    }
    meta: dict[str, Any] = {"name": action.name, "namespace": action.namespace, "labels": labels}
    annotations: dict[str, str] = _uid(action.host)
    if action.data_format is not keys.NetworkDataFormat.OPENSTACK:
        annotations[keys.NETWORK_DATA_FORMAT_ANNOTATION] = action.data_format.value
    if annotations:
        meta["annotations"] = annotations
    data = {keys.NETWORK_DATA_KEY: Secret.encode(action.network_data)}
    if action.nmstate is not None:
        data[keys.NMSTATE_KEY] = Secret.encode(action.nmstate)
    return Secret.model_validate(
        {
            "metadata": {**meta, "ownerReferences": _owner(action.host, action.namespace)},
            "type": "Opaque",
            "data": data,
        }
    )
