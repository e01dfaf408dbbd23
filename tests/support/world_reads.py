"""What the world tests read back from a running world, in one place.

Each world test asks the same three questions of the API — the host's object, its provisioning
state, the Warnings of one reason about it — through the official client, as a user's
`kubectl get`/`describe` would.
"""

from __future__ import annotations

from typing import Any

from kubernetes import client

from dhcpless import keys
from tests.support.objects import NS


def host(api: client.ApiClient, name: str, namespace: str = NS) -> dict[str, Any]:
    """The BareMetalHost `name` as the API has it now."""
    found: Any = client.CustomObjectsApi(api).get_namespaced_custom_object(
        keys.BMO_GROUP, keys.BMO_VERSION, namespace, "baremetalhosts", name
    )
    assert isinstance(found, dict)
    return found


def state(api: client.ApiClient, name: str, namespace: str = NS) -> str | None:
    """The host's `status.provisioning.state` (None before BMO has written one)."""
    status = host(api, name, namespace).get("status") or {}
    found: str | None = status.get("provisioning", {}).get("state")
    return found


def warnings(api: client.ApiClient, name: str, reason: str, namespace: str = NS) -> list[str]:
    """The messages of the Warnings of `reason` about the object `name`."""
    return [
        e.message or ""
        for e in client.CoreV1Api(api).list_namespaced_event(namespace).items
        if e.involved_object.name == name and e.type == "Warning" and e.reason == reason
    ]
