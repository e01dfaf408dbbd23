"""The adapter's watch cache (`kube.cache.watchcache`): its reads, against the sandbox API.

Covers: the three cached reads answer what a direct read answers (objects, `Gone` for a
missing template, `InvalidInput` for a malformed one, a bad name refused alike) and a second
read costs no request; readers arriving together share the one LIST; the environment switch
and the adapter a function process builds (`from_environment`: cached unless off, no thread
before the first read).
How the cache keeps itself current: `test_watch_cache_watching.py`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from dhcpless import errors, keys
from dhcpless.kube import Kube, from_environment
from dhcpless.kube.cache.watchcache import WatchCache, enabled
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import objects
from tests.unit.kube.cache_support import (
    NS,
    create,
    dump,
    ref,
    requests,
)

Read = Callable[[Kube], object]

READS = [
    pytest.param(lambda k: k.list_machine_templates(NS), id="machine-templates"),
    pytest.param(lambda k: k.get_template(ref("tmpl")), id="data-template"),
    pytest.param(lambda k: k.list_pools(NS), id="ippools"),
]


@pytest.mark.parametrize("read", READS)
def test_a_cached_read_answers_what_the_api_answers(
    world: SandboxServer, cached: tuple[Kube, WatchCache], read: Read
) -> None:
    kube, _ = cached
    direct = Kube(world.api_client())
    assert dump(read(kube)) == dump(read(direct))
    before = requests(world, "get", "list")
    assert dump(read(kube)) == dump(read(direct))
    assert requests(world, "get", "list") == before  # the second read is the cache's


def test_readers_arriving_together_wait_for_the_one_list(
    world: SandboxServer, cached: tuple[Kube, WatchCache]
) -> None:
    """gunicorn's threads take the first events at once: one LIST serves them all."""
    kube, _ = cached
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: kube.list_pools(NS), range(4)))
    assert [[p.metadata.name for p in a] for a in answers] == [["pool4"]] * 4
    assert requests(world, "get", "list") == 1


def _malformed(world: SandboxServer) -> None:
    """A template our model refuses (an ethernet without `type`), stored past the schema's
    validation the way an older CRD version could have let it in."""
    create(world, objects.data_template(objects.IPV4, "bad"))
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
        Kube(world.api_client()).get_template(ref(name))
    with pytest.raises(family) as from_cache:
        kube.get_template(ref(name))
    assert str(from_cache.value) == str(direct.value)
    assert requests(world, "get") == 0  # answered by the cache, not by a GET


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


@pytest.mark.parametrize(
    ("value", "cached"),
    [pytest.param(None, True, id="default-on"), pytest.param("off", False, id="off")],
)
def test_the_adapter_a_function_process_builds(
    world: SandboxServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    value: str | None,
    cached: bool,
) -> None:
    """`from_environment` (what the function apps build when given no adapter) has the watch
    cache unless the switch is off; building it starts nothing (no thread before gunicorn's
    fork): the first read does."""
    monkeypatch.setenv("KUBECONFIG", str(world.write_kubeconfig(tmp_path / "kubeconfig")))
    if value is None:
        monkeypatch.delenv(keys.WATCH_CACHE_ENV, raising=False)
    else:
        monkeypatch.setenv(keys.WATCH_CACHE_ENV, value)
    kube = from_environment()
    assert (kube.cache is not None) is cached
    if kube.cache is not None:
        assert kube.cache.informers() == []
        kube.list_pools(NS)
        assert len(kube.cache.informers()) == 1
        kube.cache.stop()


def test_a_misspelt_switch_stops_the_app() -> None:
    with pytest.raises(ValueError, match="expected on or off"):
        enabled("of")
