"""Extra step for the least-privilege run (test_rbac_e2e): host-registration renders too.

A host event of a waiting host whose claims are all answered renders and releases at once (the
one pipeline: every function runs the same checks). So host-registration reads what a render
needs — the IPAddresses its claims name and the IPPools of the namespace (the pool-overlap
rule, `chain.decide.write`) — and its Role must allow it, or a BareMetalHost update that
arrives before the claim's own event would answer 403 → 503 and stall the broker behind it.
"""

from __future__ import annotations

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from functions.host_registration.app import create_app as registration_app
from tests.support import harness as e2e
from tests.support import objects, scenario

from .rbac_cache_steps import cached


def _stored(sandbox: SandboxServer, name: str) -> dict[str, object]:
    with sandbox.api_client() as admin:
        host = CustomObjects(admin, keys.BMO_GROUP, keys.BMO_VERSION).get(
            "baremetalhosts", objects.NS, name
        )
    return host or {}


def registration_renders(sandbox: SandboxServer, template: str) -> bool:
    """A new host claims (ADD), IPAM answers, then only a host UPDATE reaches
    host-registration, as its own identity and with its watch cache, as its pod runs it (so the
    IPPools are listed and watched). True when that update released the host."""
    name = "rendered-by-registration"
    with sandbox.api_client() as admin:
        scenario.create(admin, objects.host(name, template=template))
    with cached(sandbox, "host-registration") as kube:
        app = registration_app(kube).test_client()
        assert e2e.deliver(app, EventType.RESOURCE_ADD, _stored(sandbox, name)) == (204, "")
        with sandbox.api_client() as admin:
            scenario.Ipam(admin).fulfil_all()
        assert e2e.deliver(app, EventType.RESOURCE_UPDATE, _stored(sandbox, name)) == (204, "")
    annotations = _stored(sandbox, name).get("metadata", {})
    assert isinstance(annotations, dict)
    return keys.PAUSED_ANNOTATION not in (annotations.get("annotations") or {})
