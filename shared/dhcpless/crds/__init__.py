"""CRDs this project owns, shipped as package data so `dhcpless demo`/`sandbox` serve them
without a checkout: `metal3preprovisioningdatatemplates.yaml` is a byte-identical copy of
`deploy/crds/` (a test holds the two equal). Sandbox-only kinds (never deployed: a cluster has
their owners' CRDs) may go in the `sandbox/` sub-folder; the world loads both."""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

SANDBOX_ONLY = "sandbox"


def crd_files() -> list[Traversable]:
    """Our CRD files, deployable ones first, each folder in name order."""
    root = resources.files(__name__)
    return [*_yaml_in(root), *_yaml_in(root.joinpath(SANDBOX_ONLY))]


def _yaml_in(folder: Traversable) -> list[Traversable]:
    if not folder.is_dir():
        return []
    found = (f for f in folder.iterdir() if f.name.endswith(".yaml"))
    return sorted(found, key=lambda f: f.name)
