"""What the watch cache keeps of an object (`kube.cache.kept`), and a bounded informer's window."""

from __future__ import annotations

import time
from typing import Any

import pytest

from dhcpless import keys
from dhcpless.kube.api import resources as r
from dhcpless.kube.cache import kept
from dhcpless.kube.cache.informer import Informer
from dhcpless.kube.cache.watchstream import WatchEvent
from dhcpless.models import IPAddress, IPPool

MANAGED = [{"manager": "ipam", "operation": "Update", "fieldsV1": {"f:status": {}}}]
APPLIED = {keys.LAST_APPLIED_ANNOTATION: "{}", "team": "a"}


def _meta(name: str) -> dict[str, Any]:
    owner = {"apiVersion": "ipam.metal3.io/v1alpha1", "kind": "IPClaim", "name": "c", "uid": "u"}
    return {
        "name": name, "namespace": "ns", "uid": f"uid-{name}", "resourceVersion": "3",
        "labels": {"a": "b"}, "annotations": dict(APPLIED), "managedFields": MANAGED,
        "ownerReferences": [owner], "creationTimestamp": "2026-01-01T00:00:00Z",
    }  # fmt: skip


def _pool() -> dict[str, Any]:
    spec = {"pools": [{"start": "10.0.0.2", "end": "10.0.0.9"}], "prefix": 24}
    spec["preAllocations"] = {"h-0": "10.0.0.2"}
    status = {"indexes": {"h-0": "10.0.0.2"}, "lastUpdated": "2026-01-01T00:00:00Z"}
    return {"apiVersion": "ipam.metal3.io/v1alpha1", "kind": "IPPool", "metadata": _meta("p"),
            "spec": spec, "status": status}  # fmt: skip


def _address(name: str = "a") -> dict[str, Any]:
    spec = {"address": "10.0.0.2", "prefix": 24, "pool": {"name": "p"}, "claim": {"name": "c"}}
    return {"apiVersion": "ipam.metal3.io/v1alpha1", "kind": "IPAddress", "metadata": _meta(name),
            "spec": spec, "status": {}}  # fmt: skip


@pytest.mark.parametrize(
    ("res", "raw", "gone"),
    [
        pytest.param(r.IPPOOLS, _pool(), {"status", "preAllocations", "managedFields"}, id="pool"),
        pytest.param(
            r.IPADDRESSES, _address(), {"status", "managedFields", "labels", "annotations",
                                        "creationTimestamp"}, id="address",
        ),
        pytest.param(r.MACHINE_TEMPLATES, _address(), {"managedFields", "status"}, id="other"),
    ],
)  # fmt: skip
def test_only_what_the_chain_reads_is_kept(
    res: r.Resource[Any], raw: dict[str, Any], gone: set[str]
) -> None:
    held = kept.keep_for(res)(raw)
    keys_held = {*held, *held["metadata"], *held["spec"]}
    assert not gone & keys_held
    assert held["spec"].get("pools", held["spec"].get("address"))
    annotations = held["metadata"].get("annotations", {})
    assert keys.LAST_APPLIED_ANNOTATION not in annotations
    assert res.parse(held).metadata.name == raw["metadata"]["name"]  # still parses


def test_a_kept_address_keeps_what_made_for_checks() -> None:
    held = IPAddress.from_k8s(kept.address(_address()))
    assert held.metadata.owner_references[0].uid == "u"
    assert (held.metadata.uid, held.metadata.resource_version) == ("uid-a", "3")
    assert held.spec.claim.name == "c"
    assert IPPool.from_k8s(kept.pool(_pool())).spec.prefix == 24


def test_a_bounded_informer_holds_the_most_recent() -> None:
    informer = Informer(None, r.IPADDRESSES, "ns")  # type: ignore[arg-type]  # never started
    assert informer.limit == kept.ADDRESS_LIMIT
    informer.limit = 3
    for i in range(5):
        informer._apply(WatchEvent("ADDED", _address(f"a{i}")))
    informer._apply(WatchEvent("MODIFIED", _address("a2")))  # changed: most recent again
    informer._apply(WatchEvent("ADDED", _address("a5")))
    assert list(informer._items) == ["a4", "a2", "a5"]
    held = informer._items["a5"]
    assert isinstance(held, bytes)  # packed
    assert len(held) < len(kept.pack(kept.address(_address("a5")))) / 2  # deflated
    assert "managedFields" not in informer.packer.unpack(held)["metadata"]
    assert informer.find("a5") is None  # not synced: it does not answer
    informer.synced.set()
    informer.heard = time.monotonic()
    assert (informer.find("a5") or {}).get("spec") == _address("a5")["spec"]
    assert informer.find("a0") is None  # not held: read directly
