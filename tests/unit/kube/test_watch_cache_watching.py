"""How the watch cache (`kube.cache.informer`) keeps itself current, against the sandbox API.

Covers: a create, an edit and a delete reach the cache through the watch with no new LIST; a
watch the server ends is resumed from its resourceVersion (no LIST); a broken stream and a
resourceVersion the history no longer holds (410) relist; a silent stream is not trusted; a
Role without `list` or `watch` makes every read a request and the cache stop for good; at rest
the cache makes no request; `stop` ends its daemon threads.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from kubernetes import client as k8s

from dhcpless.kube import Kube
from dhcpless.kube.api import resources
from dhcpless.kube.cache import informer
from dhcpless.kube.cache.reflector import Policy
from dhcpless.kube.cache.watchcache import WatchCache
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import objects
from tests.support.waits import eventually, stays
from tests.unit.kube.cache_support import (
    HISTORY,
    NS,
    break_first_watch,
    create,
    delete,
    dns,
    edit,
    end_watches,
    found,
    ref,
    requests,
    thread_ends,
    watching,
)

CHANGES = [
    pytest.param(edit, lambda k: "9.9.9.9" in str(dns(k)), id="edit"),
    pytest.param(delete, lambda k: dns(k) == "gone", id="delete"),
    pytest.param(
        lambda w: create(w, objects.data_template(objects.IPV4, "tmpl-2")),
        lambda k: found(k, "tmpl-2"),
        id="create",
    ),
]


@pytest.mark.parametrize(("change", "seen"), CHANGES)
def test_a_change_reaches_the_cache_through_the_watch(
    world: SandboxServer,
    cached: tuple[Kube, WatchCache],
    change: Callable[[SandboxServer], None],
    seen: Callable[[Kube], bool],
) -> None:
    kube, cache = cached
    kube.get_template(ref("tmpl"))
    change(world)
    eventually(lambda: seen(kube), 5, "the change in the cache")
    assert requests(world, "get", "list") == 1  # the initial LIST, nothing since
    assert [i.lists for i in cache.informers()] == [1]


def test_a_watch_the_server_ends_resumes_without_a_list(
    world: SandboxServer, cached: tuple[Kube, WatchCache]
) -> None:
    kube, cache = cached
    kube.list_pools(NS)
    end_watches(world, lambda: requests(world, "watch") >= 2)  # as at its timeoutSeconds
    edit(world)
    eventually(lambda: "9.9.9.9" in str(dns(kube)), 5, "the edit seen")
    assert next(i for i in cache.informers() if i.res.plural == "ippools").lists == 1


def test_a_broken_stream_relists(
    world: SandboxServer, cached: tuple[Kube, WatchCache], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection drops mid-stream (urllib3's ProtocolError): what was missed is
    unknown, so the informer stops answering and lists again after its backoff."""
    break_first_watch(monkeypatch)
    monkeypatch.setattr(informer, "POLICY", Policy(backoff_first=0.05))  # relisting sooner
    kube, cache = cached
    kube.list_pools(NS)
    pools = cache.informers()[0]
    eventually(lambda: pools.lists == 2 and pools.synced.is_set(), 10, "listed again")
    assert [p.metadata.name for p in kube.list_pools(NS)] == ["pool4"]


def test_a_resource_version_too_old_relists(
    world: SandboxServer, cached: tuple[Kube, WatchCache], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(informer, "POLICY", Policy(backoff_first=0.05))  # relisting sooner
    kube, cache = cached
    kube.list_pools(NS)
    with world.api_client() as api:
        for n in range(HISTORY + 5):  # other kinds' writes push the pools' version out
            body = k8s.V1Secret(metadata=k8s.V1ObjectMeta(name=f"s{n}"))
            k8s.CoreV1Api(api).create_namespaced_secret(NS, body)
    pools = cache.informers()[0]
    end_watches(world, lambda: pools.lists == 2 and pools.synced.is_set())
    assert [p.metadata.name for p in kube.list_pools(NS)] == ["pool4"]


def test_a_silent_stream_is_not_trusted_until_the_server_speaks(
    world: SandboxServer, cached: tuple[Kube, WatchCache], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past `QUIET_SECONDS` without an event or bookmark, reads go to the API server; the
    next event (here a new pool) makes the cache answer again."""
    monkeypatch.setattr(informer, "QUIET_SECONDS", 0.3)
    kube, cache = cached
    kube.list_pools(NS)
    eventually(lambda: cache.items(resources.IPPOOLS, NS) is None, 5, "the silence noticed")
    lists = requests(world, "list")
    assert [p.metadata.name for p in kube.list_pools(NS)] == ["pool4"]
    assert requests(world, "list") == lists + 1  # read directly
    pools = cache.informers()[0]
    before = pools.heard
    create(world, objects.pool("pool9", "10.9.0.1", "10.9.0.9", 24, "10.9.0.254", []))
    eventually(lambda: pools.heard > before, 5, "the server heard again")


REFUSED = [
    pytest.param("list", ["list"], id="no-list"),
    pytest.param("watch", ["list", "watch"], id="no-watch"),
]


@pytest.mark.parametrize(("verb", "tried"), REFUSED)
def test_a_role_without_list_or_watch_reads_directly(
    world: SandboxServer, cached: tuple[Kube, WatchCache], verb: str, tried: list[str]
) -> None:
    """An older Role: the cache stops at the 403 and never asks again; reads are requests
    (here the template's GET, which the Role still grants)."""
    world.authorize = lambda info: not (info.identity == "cached" and info.verb == verb)
    kube, cache = cached
    assert kube.get_template(ref("tmpl")).metadata.name == "tmpl"
    template = cache.informers()[0]
    eventually(lambda: template.disabled, 5, "the cache given up")
    thread_ends(template)
    gets = requests(world, "get")
    assert kube.get_template(ref("tmpl")).metadata.name == "tmpl"
    assert requests(world, "get") == gets + 1
    asked = [r.verb for r in world.audit.records if r.identity == "cached"]
    assert [v for v in asked if v != "get"] == tried


def test_at_rest_the_cache_makes_no_request(
    world: SandboxServer, cached: tuple[Kube, WatchCache]
) -> None:
    kube, _ = cached
    for read in (kube.list_pools, kube.list_machine_templates):
        read(NS)
    kube.get_template(ref("tmpl"))
    watching(world, 3)
    before = len(world.audit.records)
    stays(lambda: len(world.audit.records) == before, 1.0, "no request at rest")
    assert requests(world, "list") == 3 and requests(world, "watch") == 3


def test_stop_ends_the_daemon_threads(cached: tuple[Kube, WatchCache]) -> None:
    kube, cache = cached
    kube.list_pools(NS)
    assert all(i._thread.daemon and i._thread.is_alive() for i in cache.informers())
    cache.stop()
    for informer_ in cache.informers():
        thread_ends(informer_)
