"""Extra steps for the least-privilege run (test_rbac_e2e): paths issue 8 made rare, so the
chain scenario no longer reaches them by itself, each driven as the function's own identity.

* Claims without the annotations host-registration now records (as an older version made
  them): ipclaim-fulfilment takes the full path (resolve the template by its
  Metal3MachineTemplates, list claims, read the Secret, the pools and each IPAddress), writes
  the Secret and releases the host itself.
* A Secret with our labels and the host's UID written by hand (not by a function, so
  without `keys.WRITER_RELEASES_LABEL`): secret-readiness reads it and the host and releases
  the host.
"""

from __future__ import annotations

import base64
from typing import Any

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless.kube import Kube
from dhcpless.sandbox.apiserver.server import SandboxServer
from dhcpless.sandbox.controllers.custom_objects import CustomObjects
from functions.ipclaim_fulfilment.app import create_app as fulfilment_app
from functions.secret_readiness.app import create_app as readiness_app
from tests.support import harness as e2e
from tests.support import objects, scenario

Obj = dict[str, Any]
OURS = {keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE}


def _owner(sandbox: SandboxServer, host: str) -> list[Obj]:
    """The ownerReference every version of ours wrote: to the live host, by its UID."""
    with sandbox.api_client() as admin:
        stored = CustomObjects(admin, keys.BMO_GROUP, keys.BMO_VERSION).get(
            "baremetalhosts", objects.NS, host
        )
    uid = (stored or {}).get("metadata", {}).get("uid", "")
    return [{"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost", "name": host, "uid": uid}]


def _claim(host: str, pool: str, owners: list[Obj]) -> Obj:
    labels = {keys.HOST_LABEL: host, keys.HOST_NAMESPACE_LABEL: objects.NS, **OURS}
    meta = {
        "name": f"{host}-{pool}", "namespace": objects.NS, "labels": labels,
        "ownerReferences": owners,
    }  # fmt: skip
    spec = {"pool": {"name": pool, "namespace": objects.NS}}
    return {
        "apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}",
        "kind": "IPClaim",
        "metadata": meta,
        "spec": spec,
    }


def _paused(sandbox: SandboxServer, host: str) -> bool:
    with sandbox.api_client() as admin:
        stored = CustomObjects(admin, keys.BMO_GROUP, keys.BMO_VERSION).get(
            "baremetalhosts", objects.NS, host
        )
    return keys.PAUSED_ANNOTATION in ((stored or {}).get("metadata", {}).get("annotations") or {})


def older_claims(sandbox: SandboxServer, labels: dict[str, str]) -> bool:
    """A host selected by a Metal3MachineTemplate (`labels`) whose claims carry no
    annotations; True when ipclaim-fulfilment released it."""
    host = "older-claims"
    with sandbox.api_client() as admin:
        scenario.create(admin, objects.host(host, template=None, labels=labels))
        owners = _owner(sandbox, host)
        for pool in ("pool4", "pool6"):
            scenario.create(admin, _claim(host, pool, owners))
        scenario.Ipam(admin).fulfil_all()
        claim = CustomObjects(admin, keys.IPAM_GROUP, keys.IPAM_VERSION).get(
            "ipclaims", objects.NS, f"{host}-pool6"
        )
    with sandbox.api_client(token=e2e.IDENTITIES["ipclaim-fulfilment"]) as api:
        app = fulfilment_app(Kube(api)).test_client()
        assert e2e.deliver(app, EventType.RESOURCE_UPDATE, claim or {}) == (204, "")
    return not _paused(sandbox, host)


def hand_written_secret(sandbox: SandboxServer) -> bool:
    """Our labels, written by a person; True when secret-readiness released its host."""
    host = "by-hand"
    name = host + keys.SECRET_NAME_SUFFIX
    data = base64.b64encode(objects.VALID_NETWORK_DATA.encode()).decode()
    meta: Obj = {
        "name": name,
        "namespace": objects.NS,
        "labels": {**OURS, keys.HOST_LABEL: host},
    }
    secret: Obj = {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": meta,
        "data": {keys.NETWORK_DATA_KEY: data},
    }
    with sandbox.api_client() as admin:
        scenario.create(admin, objects.host(host))
        meta["ownerReferences"] = _owner(sandbox, host)  # ours: labels and the host's UID
        scenario.create(admin, secret)
    with sandbox.api_client(token=e2e.IDENTITIES["secret-readiness"]) as api:
        app = readiness_app(Kube(api)).test_client()
        ref = {"apiVersion": "v1", "kind": "Secret", "metadata": meta}
        assert e2e.deliver_raw(app, EventType.REF_ADD, ref, reference=True) == (204, "")
    return not _paused(sandbox, host)
