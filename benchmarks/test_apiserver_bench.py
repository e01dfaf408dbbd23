"""Sandbox API server throughput through the official client, at 10,000 objects.

Not a timed test: it prints a table (requests/second for create, get, patch and list, and
watch delivery latency p50/p95) and asserts only sanity, such as every object being listed.
Run with `python3 scripts/dev.py bench -s` (or `pytest benchmarks -m bench -s`).
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest
from kubernetes import watch
from kubernetes.client import CustomObjectsApi

from dhcpless_sandbox.apiserver.server import SandboxServer

pytestmark = pytest.mark.bench

OBJECTS = 10_000
SAMPLE = 1_000
WATCHED = 200
BMH = ("metal3.io", "v1alpha1", "default", "baremetalhosts")


@pytest.fixture
def co() -> Iterator[CustomObjectsApi]:
    server = SandboxServer()
    server.load_builtin_crds()
    with server:
        client = server.api_client()
        try:
            yield CustomObjectsApi(client)
        finally:
            client.close()


def _host(i: int) -> dict[str, Any]:
    return {
        "apiVersion": "metal3.io/v1alpha1",
        "kind": "BareMetalHost",
        "metadata": {"name": f"h{i:05d}", "labels": {"rack": f"r{i % 10}"}},
        "spec": {
            "online": True,
            "bootMACAddress": f"00:00:00:00:{i // 256 % 256:02x}:{i % 256:02x}",
        },
    }


def _list(co: CustomObjectsApi, **query: Any) -> dict[str, Any]:
    return cast(dict[str, Any], co.list_namespaced_custom_object(*BMH, **query))


def _rate(count: int, action: Callable[[int], object]) -> float:
    started = time.perf_counter()
    for i in range(count):
        action(i)
    return count / (time.perf_counter() - started)


def _watch_latencies(co: CustomObjectsApi) -> list[float]:
    rv = _list(co, limit=1)["metadata"]["resourceVersion"]
    sent: dict[str, float] = {}
    latencies: list[float] = []
    ready = threading.Event()

    def follow() -> None:
        stream = watch.Watch().stream(  # type: ignore[no-untyped-call]
            co.list_namespaced_custom_object, *BMH, resource_version=rv, timeout_seconds=60
        )
        ready.set()
        for event in stream:
            latencies.append(time.perf_counter() - sent[event["object"]["metadata"]["name"]])
            if len(latencies) == WATCHED:
                return

    follower = threading.Thread(target=follow)
    follower.start()
    ready.wait(10)
    for i in range(WATCHED):
        sent[f"h{i:05d}"] = time.perf_counter()
        co.patch_namespaced_custom_object(*BMH, f"h{i:05d}", {"metadata": {"labels": {"w": "1"}}})
    follower.join(60)
    return latencies


def test_throughput_at_10k_objects(co: CustomObjectsApi) -> None:
    create = _rate(OBJECTS, lambda i: co.create_namespaced_custom_object(*BMH, _host(i)))
    get = _rate(SAMPLE, lambda i: co.get_namespaced_custom_object(*BMH, f"h{i * 7 % OBJECTS:05d}"))
    patch = _rate(
        SAMPLE,
        lambda i: co.patch_namespaced_custom_object(
            *BMH, f"h{i:05d}", {"spec": {"online": i % 2 == 0}}
        ),
    )
    counted: list[int] = []
    lists = _rate(5, lambda i: counted.append(len(_list(co)["items"])))
    selected = _list(co, label_selector="rack=r3")["items"]
    latencies = sorted(_watch_latencies(co))
    p50, p95 = statistics.median(latencies), latencies[int(len(latencies) * 0.95) - 1]
    print(f"\nsandbox API server, {OBJECTS} BareMetalHosts, one kubernetes.client, sequential")
    print(f"{'operation':<28}{'rate':>14}")
    for name, value in (("create", create), ("get", get), ("patch (merge)", patch)):
        print(f"{name:<28}{value:>10.0f} /s")
    print(f"{'list all ' + str(OBJECTS):<28}{lists:>10.2f} /s  ({lists * OBJECTS:.0f} objects/s)")
    print(f"{'watch latency p50 / p95':<28}{p50 * 1000:>8.2f} / {p95 * 1000:.2f} ms")
    assert counted == [OBJECTS] * 5
    assert len(selected) == OBJECTS // 10
    assert len(latencies) == WATCHED
