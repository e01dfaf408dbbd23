"""Renders shared by the manifest tests: each tree is rendered once per session."""

from __future__ import annotations

import runpy

import pytest

from .support import ROOT, Obj, kustomize


@pytest.fixture(scope="session")
def installed() -> list[Obj]:
    """Everything the example overlay installs: CRD, functions, RBAC, eventing."""
    return kustomize(ROOT / "deploy" / "overlays" / "example")


@pytest.fixture(scope="session")
def installed_capi_ipam() -> list[Obj]:
    """The example overlay plus the optional Cluster API IPAM source component."""
    return kustomize(ROOT / "deploy" / "overlays" / "example-capi-ipam")


@pytest.fixture(scope="session")
def installed_capm3() -> list[Obj]:
    """The example overlay plus the optional CAPM3 Metal3Data source component."""
    return kustomize(ROOT / "deploy" / "overlays" / "example-capm3")


@pytest.fixture(scope="session")
def gunicorn_capacity() -> int:
    """Requests one pod serves at once: gunicorn workers x work threads (not the threads kept
    free for health probes) from the image's config."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FUNCTION", "resync")
        conf = runpy.run_path(str(ROOT / "deploy" / "gunicorn_conf.py"))
    assert int(conf["threads"]) > int(conf["THREADS"]), "no thread left for health probes"
    return int(conf["workers"]) * int(conf["THREADS"])
