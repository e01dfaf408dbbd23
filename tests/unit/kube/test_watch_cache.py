"""The adapter's watch cache (`kube.watchcache`, `kube.informer`) against the sandbox API.

Covers: the three cached reads answer what a direct read answers (objects, `Gone` for a
missing template, `InvalidInput` for a malformed one, a bad name refused alike) and a second
read costs no request; readers arriving together share the one LIST; a create, an edit and a
delete reach the cache through the watch with no new LIST; a watch the server ends is resumed
from its resourceVersion (no LIST); a broken stream and a resourceVersion the history no
longer holds (410) relist; a silent stream is not trusted; a Role without `list` or `watch`
makes every read a request and the cache stop for good; at rest the cache makes no request;
`stop` ends its daemon threads; the environment switch.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import urllib3
from kubernetes import client as k8s

from dhcpless import errors, keys
from dhcpless.kube import Kube, informer, resources, watchstream
from dhcpless.kube.informer import Informer
from dhcpless.kube.watchcache import WatchCache, enabled
from dhcpless.models.refs import TemplateKind, TemplateRef
from dhcpless.sandbox.apiserver.server import SandboxServer
from tests.support import objects
from tests.support.waits import eventually, seconds, stays

NS = objects.NS
HISTORY = 20
Read = Callable[[Kube], object]


def _ref(name: str) -> TemplateRef:
    return TemplateRef(TemplateKind.METAL3_DATA_TEMPLATE, keys.CAPM3_GROUP, name, NS)


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    """A sandbox with a short watch history, a pool, a template and a machine template."""
    with SandboxServer(history=HISTORY) as server:
        server.load_builtin_crds()
        with server.api_client() as api:
            k8s.CoreV1Api(api).create_namespace(k8s.V1Namespace(metadata=k8s.V1ObjectMeta(name=NS)))
        for obj in (objects.POOL4, objects.data_template(objects.IPV4, "tmpl")):
            _create(server, obj)
        _create(server, objects.machine_template("mt", "tmpl", {"rack": "r1"}))
        yield server


def _create(server: SandboxServer, obj: dict[str, Any]) -> None:
    group, version = obj["apiVersion"].split("/")
    plural = obj["kind"].lower() + ("es" if obj["kind"].endswith("s") else "s")
    with server.api_client() as api:
        k8s.CustomObjectsApi(api).create_namespaced_custom_object(
            group, version, NS, plural, copy.deepcopy(obj)
        )


def _custom(server: SandboxServer) -> k8s.CustomObjectsApi:
    return k8s.CustomObjectsApi(server.api_client())


@pytest.fixture
def cached(world: SandboxServer) -> Iterator[tuple[Kube, WatchCache]]:
    api = world.api_client(token="cached-token")
    world.add_token("cached-token", "cached")
    cache = WatchCache(api, first_sync=seconds(5))
    yield Kube(api, cache=cache), cache
    cache.stop()


def _requests(world: SandboxServer, *verbs: str) -> int:
    return sum(1 for r in world.audit.records if r.identity == "cached" and r.verb in verbs)


def _watching(world: SandboxServer, count: int) -> None:
    """Wait until the cache has opened `count` watches (the first opens after the LIST)."""
    eventually(lambda: _requests(world, "watch") == count, 5, f"{count} watches opened")


def _end_watches(world: SandboxServer, until: Callable[[], bool]) -> None:
    """The server ends every watch until `until` holds (a watch audited may not be
    registered yet when the first close comes)."""

    def ended() -> bool:
        world.store.close_watchers()
        return until()

    eventually(ended, 10, "the watches ended and what follows")


def _dump(value: object) -> object:
    if isinstance(value, list):
        return [_dump(v) for v in value]
    return value.model_dump() if hasattr(value, "model_dump") else value


READS = [
    pytest.param(lambda k: k.list_machine_templates(NS), id="machine-templates"),
    pytest.param(lambda k: k.get_template(_ref("tmpl")), id="data-template"),
    pytest.param(lambda k: k.list_pools(NS), id="ippools"),
]


@pytest.mark.parametrize("read", READS)
def test_a_cached_read_answers_what_the_api_answers(
    world: SandboxServer, cached: tuple[Kube, WatchCache], read: Read
) -> None:
    kube, _ = cached
    direct = Kube(world.api_client())
    assert _dump(read(kube)) == _dump(read(direct))
    before = _requests(world, "get", "list")
    assert _dump(read(kube)) == _dump(read(direct))
    assert _requests(world, "get", "list") == before  # the second read is the cache's


def test_readers_arriving_together_wait_for_the_one_list(
    world: SandboxServer, cached: tuple[Kube, WatchCache]
) -> None:
    """gunicorn's threads take the first events at once: one LIST serves them all."""
    kube, _ = cached
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: kube.list_pools(NS), range(4)))
    assert [[p.metadata.name for p in a] for a in answers] == [["pool4"]] * 4
    assert _requests(world, "get", "list") == 1


def _malformed(world: SandboxServer) -> None:
    """A template our model refuses (an ethernet without `type`), stored past the schema's
    validation the way an older CRD version could have let it in."""
    _create(world, objects.data_template(objects.IPV4, "bad"))
    stored = next(o for o in _stored(world) if o["metadata"]["name"] == "bad")
    changed = copy.deepcopy(stored)
    del changed["spec"]["networkData"]["links"]["ethernets"][0]["type"]
    key = world.store.key_of(stored["metadata"]["uid"])
    assert key is not None
    world.store.put(key, changed, stored)


def _stored(world: SandboxServer) -> list[dict[str, Any]]:
    rt = world.registry.lookup(keys.CAPM3_GROUP, keys.CAPM3_VERSION, "metal3datatemplates")
    assert rt is not None
    return world.store.listing(rt.storage_key, NS)


ERRORS = [
    pytest.param(lambda w: None, "absent", errors.Gone, id="missing-is-gone"),
    pytest.param(_malformed, "bad", errors.InvalidInput, id="malformed-is-invalid"),
    pytest.param(lambda w: None, "Bad..Name", errors.InvalidInput, id="bad-name-refused"),
]


@pytest.mark.parametrize(("arrange", "name", "family"), ERRORS)
def test_a_cached_read_fails_as_the_api_read_fails(
    world: SandboxServer,
    cached: tuple[Kube, WatchCache],
    arrange: Callable[[SandboxServer], None],
    name: str,
    family: type[Exception],
) -> None:
    arrange(world)
    kube, _ = cached
    with pytest.raises(family) as direct:
        Kube(world.api_client()).get_template(_ref(name))
    with pytest.raises(family) as from_cache:
        kube.get_template(_ref(name))
    assert str(from_cache.value) == str(direct.value)
    assert _requests(world, "get") == 0  # answered by the cache, not by a GET


def _edit(world: SandboxServer) -> None:
    spec = {"spec": {"networkData": {"services": {"dns": ["9.9.9.9"]}}}}
    _custom(world).patch_namespaced_custom_object(
        keys.CAPM3_GROUP, keys.CAPM3_VERSION, NS, "metal3datatemplates", "tmpl", spec
    )


def _delete(world: SandboxServer) -> None:
    _custom(world).delete_namespaced_custom_object(
        keys.CAPM3_GROUP, keys.CAPM3_VERSION, NS, "metal3datatemplates", "tmpl"
    )


def _dns(kube: Kube) -> object:
    try:
        data = kube.get_template(_ref("tmpl")).network_data
        return None if data is None else data.model_dump().get("services")
    except errors.Gone:
        return "gone"


def _found(kube: Kube, name: str) -> bool:
    try:
        return kube.get_template(_ref(name)).metadata.name == name
    except errors.Gone:
        return False


CHANGES = [
    pytest.param(_edit, lambda k: "9.9.9.9" in str(_dns(k)), id="edit"),
    pytest.param(_delete, lambda k: _dns(k) == "gone", id="delete"),
    pytest.param(
        lambda w: _create(w, objects.data_template(objects.IPV4, "tmpl-2")),
        lambda k: _found(k, "tmpl-2"),
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
    kube.get_template(_ref("tmpl"))
    change(world)
    eventually(lambda: seen(kube), 5, "the change in the cache")
    assert _requests(world, "get", "list") == 1  # the initial LIST, nothing since
    assert [i.lists for i in cache.informers()] == [1]


def test_a_watch_the_server_ends_resumes_without_a_list(
    world: SandboxServer, cached: tuple[Kube, WatchCache]
) -> None:
    kube, cache = cached
    kube.list_pools(NS)
    _end_watches(world, lambda: _requests(world, "watch") >= 2)  # as at its timeoutSeconds
    _edit(world)
    eventually(lambda: "9.9.9.9" in str(_dns(kube)), 5, "the edit seen")
    assert next(i for i in cache.informers() if i.res.plural == "ippools").lists == 1


def test_a_broken_stream_relists(
    world: SandboxServer, cached: tuple[Kube, WatchCache], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection drops mid-stream (urllib3's ProtocolError): what was missed is
    unknown, so the informer stops answering and lists again after its backoff."""
    real, calls = watchstream.watch, []

    def breaks_once(*args: Any, **kw: Any) -> Iterator[watchstream.WatchEvent]:
        calls.append(args)
        if len(calls) == 1:
            raise urllib3.exceptions.ProtocolError("connection broken: IncompleteRead")
        yield from real(*args, **kw)

    monkeypatch.setattr(watchstream, "watch", breaks_once)
    monkeypatch.setattr(informer, "BACKOFF_FIRST", 0.05)  # the relist's wait, shortened
    kube, cache = cached
    kube.list_pools(NS)
    pools = cache.informers()[0]
    eventually(lambda: pools.lists == 2 and pools.synced.is_set(), 10, "listed again")
    assert [p.metadata.name for p in kube.list_pools(NS)] == ["pool4"]


def test_a_resource_version_too_old_relists(
    world: SandboxServer, cached: tuple[Kube, WatchCache], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(informer, "BACKOFF_FIRST", 0.05)  # the relist's wait, shortened
    kube, cache = cached
    kube.list_pools(NS)
    with world.api_client() as api:
        for n in range(HISTORY + 5):  # other kinds' writes push the pools' version out
            body = k8s.V1Secret(metadata=k8s.V1ObjectMeta(name=f"s{n}"))
            k8s.CoreV1Api(api).create_namespaced_secret(NS, body)
    pools = cache.informers()[0]
    _end_watches(world, lambda: pools.lists == 2 and pools.synced.is_set())
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
    lists = _requests(world, "list")
    assert [p.metadata.name for p in kube.list_pools(NS)] == ["pool4"]
    assert _requests(world, "list") == lists + 1  # read directly
    pools = cache.informers()[0]
    before = pools.heard
    _create(world, objects.pool("pool9", "10.9.0.1", "10.9.0.9", 24, "10.9.0.254", []))
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
    assert kube.get_template(_ref("tmpl")).metadata.name == "tmpl"
    template = cache.informers()[0]
    eventually(lambda: template.disabled, 5, "the cache given up")
    _thread_ends(template)
    gets = _requests(world, "get")
    assert kube.get_template(_ref("tmpl")).metadata.name == "tmpl"
    assert _requests(world, "get") == gets + 1
    asked = [r.verb for r in world.audit.records if r.identity == "cached"]
    assert [v for v in asked if v != "get"] == tried


def _thread_ends(informer: Informer) -> None:
    eventually(lambda: not informer._thread.is_alive(), 5, "its thread ended")


def test_at_rest_the_cache_makes_no_request(
    world: SandboxServer, cached: tuple[Kube, WatchCache]
) -> None:
    kube, _ = cached
    for read in (kube.list_pools, kube.list_machine_templates):
        read(NS)
    kube.get_template(_ref("tmpl"))
    _watching(world, 3)
    before = len(world.audit.records)
    stays(lambda: len(world.audit.records) == before, 1.0, "no request at rest")
    assert _requests(world, "list") == 3 and _requests(world, "watch") == 3


def test_stop_ends_the_daemon_threads(cached: tuple[Kube, WatchCache]) -> None:
    kube, cache = cached
    kube.list_pools(NS)
    assert all(i._thread.daemon and i._thread.is_alive() for i in cache.informers())
    cache.stop()
    for informer_ in cache.informers():
        _thread_ends(informer_)


@pytest.mark.parametrize(
    ("value", "on"),
    [
        pytest.param(None, True, id="unset-on"),
        pytest.param("on", True, id="on"),
        pytest.param("OFF", False, id="off"),
        pytest.param("false", False, id="false"),
        pytest.param("0", False, id="zero"),
    ],
)
def test_the_environment_switch(value: str | None, on: bool) -> None:
    assert enabled(value) is on


def test_a_misspelt_switch_stops_the_app() -> None:
    with pytest.raises(ValueError, match="expected on or off"):
        enabled("of")
