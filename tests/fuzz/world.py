"""A sandbox populated with every kind of host the functions may be asked about, settled.

Fuzz and forged-event tests post events about these objects. The world is chosen so that no
event, however it is shaped, justifies a write: hosts that are not ours (not paused, a foreign
pause, a user's pause value), hosts whose templates are broken (unknown pool, bad MAC, bad route
prefix, cyclic bond/VLAN links) with their claims already fulfilled or failed, and a host named
to a user's Secret whose data is invalid. A write that happens anyway is a bug; `revision`
(the store's resourceVersion) tells whether anything changed at all.
"""

from __future__ import annotations

import base64
import copy
import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from kubernetes import client as k8s

from dhcpless import keys, registry
from dhcpless.kube import Kube
from dhcpless.settings import Settings
from dhcpless_sandbox.apiserver.server import SandboxServer
from functions.resync.settings import ResyncSettings
from tests.support import harness, objects, scenario

Obj = dict[str, Any]
DT = "metal3datatemplates.infrastructure.cluster.x-k8s.io/"
FUNCTIONS = (*harness.FUNCTIONS, keys.DEAD_LETTER_FUNCTION)


def _broken(name: str, change: str) -> Obj:
    data: Obj = copy.deepcopy(objects.IPV4)
    if change == "bad-mac":
        data["links"]["ethernets"][0]["macAddress"] = {"string": "52:54:00:aa:bb"}
    elif change == "bad-prefix":
        data["networks"]["ipv4"][0]["routes"][0]["prefix"] = 99
    elif change == "unknown-pool":
        data["networks"]["ipv4"][0] |= {"ipAddressFromIPPool": "nosuch", "routes": []}
        data["services"] = {"dns": ["8.8.8.8"]}
    elif change == "cyclic":
        data = copy.deepcopy(objects.BOND_VLAN)
        data["links"]["bonds"][0]["bondLinks"] = ["vlan100", "eth1"]
    template: Obj = objects.data_template(data, f"tmpl-{name}")
    return template


BROKEN = ("bad-mac", "bad-prefix", "unknown-pool", "cyclic")


def _user_secret(data: str) -> Obj:
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": "user-secret", "namespace": objects.NS},
        "type": "Opaque",
        "data": {keys.NETWORK_DATA_KEY: base64.b64encode(data.encode()).decode()},
    }


def inventory() -> list[Obj]:
    """Pools, templates, hosts and a user Secret; claims are added by `settle`."""
    hosts = [
        objects.host("released", pause=None, data_name="user-secret"),
        objects.host("capm3", pause=keys.CAPM3_PAUSE),
        objects.host("user-pause", pause="ops/hold-for-firmware"),
        objects.host("user-named", data_name="user-secret", template=None),
        *(objects.host(f"broken-{b}", template=f"{DT}tmpl-{b}") for b in BROKEN),
    ]
    templates = [_broken(b, b) for b in BROKEN]
    return [objects.POOL4, *templates, *hosts, _user_secret('{"links": "not a list"}')]


def _claim(host: str, pool: str) -> Obj:
    labels = {
        keys.HOST_LABEL: host,
        keys.HOST_NAMESPACE_LABEL: objects.NS,
        keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE,
    }
    return {
        "apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}",
        "kind": "IPClaim",
        "metadata": {"name": f"{host}-{pool}", "namespace": objects.NS, "labels": labels},
        "spec": {"pool": {"name": pool, "namespace": objects.NS}},
    }


def settle(sandbox: SandboxServer) -> None:
    """Create the inventory and every claim the chain would make, each fulfilled or failed."""
    with sandbox.api_client() as admin:
        for obj in inventory():
            scenario.create(admin, obj)
        for broken in BROKEN:
            pool = "nosuch" if broken == "unknown-pool" else "pool4"
            scenario.create(admin, _claim(f"broken-{broken}", pool))
        ipam = scenario.Ipam(admin)
        for broken in BROKEN:
            claim = get(sandbox, "IPClaim", f"broken-{broken}-pool4")
            if claim is not None:
                ipam.fulfil(claim)
        _fail(admin, "broken-unknown-pool-nosuch")


def _fail(admin: k8s.ApiClient, name: str) -> None:
    group, version, plural = scenario.RESOURCES["IPClaim"]
    status = {"status": {"errorMessage": "Failed to get pool nosuch"}}
    k8s.CustomObjectsApi(admin).patch_namespaced_custom_object_status(
        group, version, objects.NS, plural, name, status
    )


def get(sandbox: SandboxServer, kind: str, name: str) -> Obj | None:
    return harness.get(sandbox, kind, name)


def revision(sandbox: SandboxServer) -> int:
    """The store's resourceVersion: it moves with every successful write, and only then."""
    return sandbox.store.resource_version


@dataclass
class Fuzzed:
    """The settled sandbox and one quiet Flask test client per function."""

    sandbox: SandboxServer
    clients: dict[str, FlaskClient]
    known: list[Obj]
    """The objects events may be about (hosts, claims, Secrets), as the API returned them."""


def app(sandbox: SandboxServer, function: str) -> Flask:
    """A function's app calling the sandbox with its own identity, recording no Events."""
    module = importlib.import_module(registry.function(function).module)
    if function == keys.DEAD_LETTER_FUNCTION:
        made: Flask = module.create_app()
        return made
    kube = Kube(sandbox.api_client(token=harness.token(function)))
    quiet = Settings(record_events=False)
    extra = {"resync": ResyncSettings(namespace=objects.NS)} if function == "resync" else {}
    made = module.create_app(kube, quiet, **extra)
    return made


@contextmanager
def fuzzed() -> Iterator[Fuzzed]:
    with harness.running() as sandbox:
        settle(sandbox)
        with sandbox.api_client() as admin:
            known = sorted(scenario.snapshot(admin).values(), key=lambda o: o["metadata"]["name"])
        sandbox.reset_audit()
        yield Fuzzed(sandbox, {f: app(sandbox, f).test_client() for f in FUNCTIONS}, known)
