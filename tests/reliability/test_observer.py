"""The observer's counters can fail: each violation, done by hand as admin, is counted.

Table-driven: a host paused by someone else is unpaused, a user's Secret name is changed, a host
is unpaused with no Secret, two live hosts' claims get the same address, and a deleted host's
claim is left behind. The observer, watching the sandbox, must count exactly that violation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.controllers.reflector import WatchEvent
from dhcpless_sandbox.demo.inventory import NAMESPACE, create, host, inventory
from dhcpless_sandbox.observe.observer import Observer
from tests.support.waits import eventually

Obj = dict[str, Any]
PAUSE = "/metadata/annotations/" + keys.PAUSED_ANNOTATION.replace("/", "~1")


def _hosts() -> list[Obj]:
    foreign, named, ours, other = (host(i) for i in range(4))
    foreign["metadata"]["annotations"][keys.PAUSED_ANNOTATION] = keys.CAPM3_PAUSE
    named["spec"]["preprovisioningNetworkDataName"] = "users-own"
    return [foreign, named, ours, other]


def _patch(api: client.ApiClient, name: str, ops: list[Obj]) -> None:
    client.CustomObjectsApi(api).patch_namespaced_custom_object(
        keys.BMO_GROUP,
        keys.BMO_VERSION,
        NAMESPACE,
        "baremetalhosts",
        name,
        ops,
        _content_type="application/json-patch+json",
    )


def _claim(api: client.ApiClient, owner: str, address: str) -> None:
    labels = {keys.HOST_LABEL: owner, keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE}
    ipam = f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}"
    claim = {
        "apiVersion": ipam,
        "kind": "IPClaim",
        "metadata": {"name": f"{owner}-provisioning", "namespace": NAMESPACE, "labels": labels},
        "spec": {"pool": {"name": "provisioning"}},
    }
    addr = {
        "apiVersion": ipam,
        "kind": "IPAddress",
        "metadata": {"name": f"a-{owner}", "namespace": NAMESPACE},
        "spec": {
            "address": address,
            "prefix": 24,
            "pool": {"name": "provisioning"},
            "claim": {"name": f"{owner}-provisioning"},
        },
    }
    create(api, [claim, addr])


def _unpause_foreign(api: client.ApiClient) -> None:
    _patch(api, "host-000", [{"op": "remove", "path": PAUSE}])


def _rename(api: client.ApiClient) -> None:
    _patch(
        api,
        "host-001",
        [{"op": "replace", "path": "/spec/preprovisioningNetworkDataName", "value": "x"}],
    )


def _unpause_without_data(api: client.ApiClient) -> None:
    _patch(api, "host-002", [{"op": "remove", "path": PAUSE}])


def _same_address(api: client.ApiClient) -> None:
    _claim(api, "host-002", "192.168.111.20")
    _claim(api, "host-003", "192.168.111.20")


def _leave_claim(api: client.ApiClient) -> None:
    _claim(api, "host-003", "192.168.111.21")
    CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION).delete(
        "baremetalhosts", NAMESPACE, "host-003"
    )


class _Watched(Observer):
    """The observer, telling the test which hosts it has seen and how many samples it took,
    so the test waits for the observer instead of for a fixed time."""

    def __init__(self, api: client.ApiClient, namespace: str, *, period: float) -> None:
        super().__init__(api, namespace, period=period)
        self.names: set[str] = set()
        self.deleted: set[str] = set()
        self.samples = 0

    def _on_host(self, kind: WatchEvent, host: Obj) -> None:
        super()._on_host(kind, host)
        seen = self.deleted if kind is WatchEvent.DELETED else self.names
        seen.add(host["metadata"]["name"])

    def sample(self) -> None:
        super().sample()
        self.samples += 1

    def noticed(self, counter: str) -> bool:
        """The violation reached the observer (a deleted host is judged at the end)."""
        if counter == "leaked_objects":
            return "host-003" in self.deleted
        return self.violations()[counter] > 0


def _settle(observer: _Watched, seen: Callable[[], bool]) -> None:
    """Wait until `seen()` holds, then for two more full samples (a wrong count would show)."""
    eventually(seen, 10, "the observer seeing the change")
    after = observer.samples
    eventually(lambda: observer.samples >= after + 2, 10, "two more observer samples")


@pytest.mark.parametrize(
    ("violate", "counter"),
    [
        pytest.param(_unpause_foreign, "foreign_pauses_removed", id="foreign-pause-removed"),
        pytest.param(_rename, "overwritten_network_data_names", id="user-name-overwritten"),
        pytest.param(_unpause_without_data, "unpaused_without_valid_data", id="unpaused-no-data"),
        pytest.param(_same_address, "double_allocations", id="double-allocation"),
        pytest.param(_leave_claim, "leaked_objects", id="leaked-claim"),
    ],
)
def test_observer_counts_the_violation(
    sandbox: SandboxServer,
    api_client: client.ApiClient,
    violate: Callable[[client.ApiClient], None],
    counter: str,
) -> None:
    hosts = _hosts()
    observer = _Watched(api_client, NAMESPACE, period=0.05)
    observer.expect(hosts)
    create(api_client, inventory(0)[:1])
    observer.start()
    create(api_client, hosts)
    _settle(observer, lambda: observer.names >= {h["metadata"]["name"] for h in hosts})
    assert observer.violations() == dict.fromkeys(observer.violations(), 0)
    violate(api_client)
    _settle(observer, lambda: observer.noticed(counter))
    observer.stop()
    gone = ["host-003"] if counter == "leaked_objects" else []
    counts = observer.violations() | {"leaked_objects": observer.leaked(gone)}
    assert {k: v for k, v in counts.items() if v} == {
        counter: 1 if counter != "leaked_objects" else 2
    }
