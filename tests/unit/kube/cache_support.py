"""What the watch cache's tests share: a namespace's objects, writes as admin, counts of the
cache's own requests (its identity is `cached`), and waits on what its informers did."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import urllib3
from kubernetes import client as k8s

from dhcpless import errors, keys
from dhcpless.kube import Kube
from dhcpless.kube.cache import watchstream
from dhcpless.kube.cache.informer import Informer
from dhcpless.models.refs import TemplateKind, TemplateRef
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import objects
from tests.support.waits import eventually

NS = objects.NS
HISTORY = 20
"""Watch events the sandbox keeps: a few writes push a quiet kind's version out of it."""


def ref(name: str) -> TemplateRef:
    return TemplateRef(TemplateKind.METAL3_DATA_TEMPLATE, keys.CAPM3_GROUP, name, NS)


def create(server: SandboxServer, obj: dict[str, Any]) -> None:
    group, version = obj["apiVersion"].split("/")
    plural = obj["kind"].lower() + ("es" if obj["kind"].endswith("s") else "s")
    with server.api_client() as api:
        k8s.CustomObjectsApi(api).create_namespaced_custom_object(
            group, version, NS, plural, copy.deepcopy(obj)
        )


def custom(server: SandboxServer) -> k8s.CustomObjectsApi:
    return k8s.CustomObjectsApi(server.api_client())


def requests(world: SandboxServer, *verbs: str) -> int:
    return sum(1 for r in world.audit.records if r.identity == "cached" and r.verb in verbs)


def watching(world: SandboxServer, count: int) -> None:
    """Wait until the cache has opened `count` watches (the first opens after the LIST)."""
    eventually(lambda: requests(world, "watch") == count, 5, f"{count} watches opened")


def end_watches(world: SandboxServer, until: Callable[[], bool]) -> None:
    """The server ends every watch until `until` holds (a watch audited may not be
    registered yet when the first close comes)."""

    def ended() -> bool:
        world.store.close_watchers()
        return until()

    eventually(ended, 10, "the watches ended and what follows")


def dump(value: object) -> object:
    if isinstance(value, list):
        return [dump(v) for v in value]
    return value.model_dump() if hasattr(value, "model_dump") else value


def edit(world: SandboxServer) -> None:
    spec = {"spec": {"networkData": {"services": {"dns": ["9.9.9.9"]}}}}
    custom(world).patch_namespaced_custom_object(
        keys.CAPM3_GROUP, keys.CAPM3_VERSION, NS, "metal3datatemplates", "tmpl", spec
    )


def delete(world: SandboxServer) -> None:
    custom(world).delete_namespaced_custom_object(
        keys.CAPM3_GROUP, keys.CAPM3_VERSION, NS, "metal3datatemplates", "tmpl"
    )


def dns(kube: Kube) -> object:
    try:
        data = kube.get_template(ref("tmpl")).network_data
        return None if data is None else data.model_dump().get("services")
    except errors.Gone:
        return "gone"


def found(kube: Kube, name: str) -> bool:
    try:
        return kube.get_template(ref(name)).metadata.name == name
    except errors.Gone:
        return False


def thread_ends(informer: Informer) -> None:
    eventually(lambda: not informer._thread.is_alive(), 5, "its thread ended")


def break_first_watch(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The first WATCH drops mid-stream (urllib3's ProtocolError), the next ones run; the
    list fills with each WATCH's arguments."""
    real, calls = watchstream.watch, []

    def breaks_once(*args: Any, **kw: Any) -> Iterator[watchstream.WatchEvent]:
        calls.append(args)
        if len(calls) == 1:
            raise urllib3.exceptions.ProtocolError("connection broken: IncompleteRead")
        yield from real(*args, **kw)

    monkeypatch.setattr(watchstream, "watch", breaks_once)
    return calls
