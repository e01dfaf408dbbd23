"""Extra steps for the least-privilege run (test_rbac_e2e): paths issue 8 made rare, so the
chain scenario no longer reaches them by itself, each driven as the function's own identity.

* Claims without the annotations host-registration now records (as an older version made
  them): ipclaim-fulfilment takes the full path (resolve the template by its
  Metal3MachineTemplates, list claims, read the Secret, the pools and each IPAddress), writes
  the Secret and releases the host itself.
* A Secret with our labels and the host's UID written by hand (not by a function, so
  without `keys.WRITER_RELEASES_LABEL`): secret-readiness reads it and the host, cannot tell it
  from a forgery and keeps the host paused with a Warning (`chain.decide.verify`); resync, on
  its next tick, renders it again from the host's template and releases the host.
* A user's Secret named by a host before it exists: secret-readiness releases the host.
* Such a Secret met by the claims' path: host-registration (a template without pools) and
  ipclaim-fulfilment (once IPAM answered) render it again (`update`) and release the host.
"""

from __future__ import annotations

import base64
from typing import Any

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless.kube import Kube
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from functions.host_registration.app import create_app as registration_app
from functions.ipclaim_fulfilment.app import create_app as fulfilment_app
from functions.secret_readiness.app import create_app as readiness_app
from tests.support import harness as e2e
from tests.support import objects, scenario

Obj = dict[str, Any]
OURS = {keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE}
NO_POOLS = f"metal3datatemplates.{keys.CAPM3_GROUP}/tmpl-nopools"
PRE_V6 = f"metal3preprovisioningdatatemplates.{keys.CAPM3_GROUP}/pre-v6"


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


def _hand_written(sandbox: SandboxServer, host: str, template: str) -> Obj:
    """A waiting host and a Secret under its default name with our labels and its UID, not
    what its template renders; the Secret's metadata."""
    name = host + keys.SECRET_NAME_SUFFIX
    data = base64.b64encode(objects.VALID_NETWORK_DATA.encode()).decode()
    meta: Obj = {"name": name, "namespace": objects.NS, "labels": {**OURS, keys.HOST_LABEL: host}}
    secret: Obj = {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": meta,
        "data": {keys.NETWORK_DATA_KEY: data},
    }
    with sandbox.api_client() as admin:
        scenario.create(admin, objects.host(host, template=template))
        meta["ownerReferences"] = _owner(sandbox, host)  # ours: labels and the host's UID
        scenario.create(admin, secret)
    return meta


def hand_written_secret(sandbox: SandboxServer) -> bool:
    """Our labels, written by a person; True when secret-readiness kept its host paused."""
    meta = _hand_written(sandbox, "by-hand", NO_POOLS)
    with sandbox.api_client(token=e2e.IDENTITIES["secret-readiness"]) as api:
        app = readiness_app(Kube(api)).test_client()
        ref = {"apiVersion": "v1", "kind": "Secret", "metadata": meta}
        assert e2e.deliver_raw(app, EventType.REF_ADD, ref, reference=True) == (204, "")
    return _paused(sandbox, "by-hand")


def named_later(sandbox: SandboxServer) -> bool:
    """A host naming a user's Secret that is written after the host: True when
    secret-readiness, on that Secret's event, released the host (its `patch`)."""
    data = base64.b64encode(objects.VALID_NETWORK_DATA.encode()).decode()
    meta: Obj = {"name": "named-later", "namespace": objects.NS}
    secret: Obj = {"apiVersion": "v1", "kind": "Secret", "metadata": meta,
                   "data": {keys.NETWORK_DATA_KEY: data}}  # fmt: skip
    with sandbox.api_client() as admin:
        scenario.create(admin, objects.host("named-later", data_name="named-later", template=None))
        scenario.create(admin, secret)
    with sandbox.api_client(token=e2e.IDENTITIES["secret-readiness"]) as api:
        app = readiness_app(Kube(api)).test_client()
        ref = {"apiVersion": "v1", "kind": "Secret", "metadata": meta}
        assert e2e.deliver_raw(app, EventType.REF_ADD, ref, reference=True) == (204, "")
    return not _paused(sandbox, "named-later")


def rendered_again(sandbox: SandboxServer) -> bool:
    """True when host-registration and ipclaim-fulfilment each rendered such a Secret again
    and released its host."""
    _hand_written(sandbox, "stale-at-add", NO_POOLS)
    with sandbox.api_client(token=e2e.IDENTITIES["host-registration"]) as api:
        app = registration_app(Kube(api)).test_client()
        stored = _stored(sandbox, "baremetalhosts", "stale-at-add", keys.BMO_GROUP)
        assert e2e.deliver(app, EventType.RESOURCE_ADD, stored) == (204, "")
    _hand_written(sandbox, "stale-at-claim", PRE_V6)
    with sandbox.api_client(token=e2e.IDENTITIES["host-registration"]) as api:
        app = registration_app(Kube(api)).test_client()
        stored = _stored(sandbox, "baremetalhosts", "stale-at-claim", keys.BMO_GROUP)
        assert e2e.deliver(app, EventType.RESOURCE_ADD, stored) == (204, "")
    with sandbox.api_client() as admin:
        scenario.Ipam(admin).fulfil_all()
    claim = _stored(sandbox, "ipclaims", "stale-at-claim-pool6", keys.IPAM_GROUP)
    with sandbox.api_client(token=e2e.IDENTITIES["ipclaim-fulfilment"]) as api:
        app = fulfilment_app(Kube(api)).test_client()
        assert e2e.deliver(app, EventType.RESOURCE_UPDATE, claim) == (204, "")
    return not _paused(sandbox, "stale-at-add") and not _paused(sandbox, "stale-at-claim")


def _stored(sandbox: SandboxServer, plural: str, name: str, group: str) -> Obj:
    version = keys.BMO_VERSION if group == keys.BMO_GROUP else keys.IPAM_VERSION
    with sandbox.api_client() as admin:
        found = CustomObjects(admin, group, version).get(plural, objects.NS, name)
    assert found is not None
    return found
