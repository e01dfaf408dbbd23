"""What the tenant scenarios share: the tenant acting in a world, and what they read back.

The tenant (`tests.adversary.tenant`) is a ServiceAccount with only the rights a scenario
names, here acting in a whole world (`world_run.scenario_world`): its requests reach the
sources, the broker and the functions like anyone's, and the judges watch what follows.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from kubernetes import client

from dhcpless import keys
from tests.adversary import tenant
from tests.scenarios.world_run import NS, Obj, Run


@contextmanager
def acting(run: Run, *rules: Obj, namespace: str = NS) -> Iterator[tenant.Tenant]:
    """The tenant in `run`'s world, allowed exactly `rules` in `namespace`."""
    with tenant.acting(run.world.sandbox, *rules, namespace=namespace) as attacker:
        yield attacker


def events(run: Run, name: str, reason: str, kind: str = "BareMetalHost") -> list[Obj]:
    """Events of `reason` about the `kind` named `name`, in every namespace."""
    listing = client.CoreV1Api(run.api).list_event_for_all_namespaces().items
    return [
        {"namespace": e.metadata.namespace, "type": e.type, "message": e.message or ""}
        for e in listing
        if e.involved_object.name == name and e.involved_object.kind == kind
        and e.reason == reason
    ]  # fmt: skip


def claims(run: Run) -> list[tuple[str, str, str]]:
    """(namespace, name, uid) of every IPClaim in the cluster."""
    found = client.CustomObjectsApi(run.api).list_cluster_custom_object(
        keys.IPAM_GROUP, keys.IPAM_VERSION, "ipclaims"
    )
    assert isinstance(found, dict)
    return sorted(
        (c["metadata"]["namespace"], c["metadata"]["name"], c["metadata"]["uid"])
        for c in found["items"]
    )


def namespace(run: Run, name: str, labels: dict[str, str] | None = None) -> None:
    """Create Namespace `name` (or label it, when it exists)."""
    core, meta = client.CoreV1Api(run.api), client.V1ObjectMeta(name=name, labels=labels)
    try:
        core.create_namespace(client.V1Namespace(metadata=meta))
    except client.ApiException as error:
        if error.status != 409:
            raise
        core.patch_namespace(name, {"metadata": {"labels": labels or {}}})


def in_namespace(obj: Obj, name: str) -> Obj:
    obj["metadata"]["namespace"] = name
    return obj
