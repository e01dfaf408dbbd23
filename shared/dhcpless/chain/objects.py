"""The objects `chain.act` creates: our claims (Metal3 and CAPI) and the network-data Secret,
each with our labels, the host's UID, and an ownerReference to the host where one can point.
Pure (action in, model out): `decide` also builds the Secret it is about to write."""

from __future__ import annotations

from typing import Any

from dhcpless import keys
from dhcpless.chain.actions import CreateIPAddressClaim, CreateIPClaim, WriteSecret
from dhcpless.models import IPAddressClaim, IPClaim, Secret
from dhcpless.refs import HostRef
from dhcpless.render.formats import registry as formats


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
    if action.pools:  # the template the claim was made for (`dhcpless status` shows it)
        meta["annotations"] |= {keys.CLAIM_TEMPLATE_ANNOTATION: action.template}
    if action.address:  # a re-claim asks for the host's own address back
        meta["annotations"] |= {keys.REQUESTED_IP_ANNOTATION: action.address}
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


def secret_object(action: WriteSecret) -> Secret:
    labels = {
        **_labels(action.host),
        keys.BMO_SECRET_LABEL: keys.BMO_SECRET_LABEL_VALUE,
        keys.WRITER_RELEASES_LABEL: keys.WRITER_RELEASES_VALUE,
    }
    meta: dict[str, Any] = {"name": action.name, "namespace": action.namespace, "labels": labels}
    annotations: dict[str, str] = _uid(action.host)
    if action.data_format != formats.DEFAULT.name:  # the default is not recorded
        annotations[keys.NETWORK_DATA_FORMAT_ANNOTATION] = str(action.data_format)
    annotations[keys.RAMDISK_PROFILE_ANNOTATION] = action.ramdisk_profile.value
    if action.claimed:  # carried to the host by the release (`chain.decide.reclaim`)
        annotations[keys.CLAIMED_POOLS_ANNOTATION] = action.claimed
    if action.addresses:  # what a re-claim asks for back (`chain.decide.reclaim`)
        annotations[keys.CLAIMED_ADDRESSES_ANNOTATION] = action.addresses
    if annotations:
        meta["annotations"] = annotations
    data = {keys.NETWORK_DATA_KEY: Secret.encode(action.network_data)}
    data.update((key, Secret.encode(text)) for key, text in action.other_keys)
    return Secret.model_validate(
        {
            "metadata": {**meta, "ownerReferences": _owner(action.host, action.namespace)},
            "type": "Opaque",
            "data": data,
        }
    )
