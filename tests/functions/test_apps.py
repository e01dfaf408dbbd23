"""The one public factory (`functions.apps.create_app`): every function of the registry, by
name, built without `importlib` and served by the app of that function."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kubernetes import client

from dhcpless import registry
from dhcpless.kube import Kube
from dhcpless.settings import Settings
from functions import apps


@pytest.fixture
def kube() -> Iterator[Kube]:
    """An adapter that is never called: building an app reads nothing."""
    api = client.ApiClient(client.Configuration(host="http://127.0.0.1:9"))
    try:
        yield Kube(api)
    finally:
        api.close()  # type: ignore[no-untyped-call]


def test_every_registered_function_has_a_builder() -> None:
    assert set(apps.BUILDERS) == set(registry.BY_NAME)


@pytest.mark.parametrize("function", [pytest.param(f, id=f.name) for f in registry.FUNCTIONS])
def test_create_app_builds_that_functions_app(function: registry.Function, kube: Kube) -> None:
    app = apps.create_app(function.name, kube, Settings())
    assert app.name == function.name
    assert app.view_functions, "an app with no route serves nothing"


def test_an_unknown_name_is_refused_with_the_known_ones(kube: Kube) -> None:
    with pytest.raises(ValueError, match="host-registration"):
        apps.create_app("host-registrar", kube)
