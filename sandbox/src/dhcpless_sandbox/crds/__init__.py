"""The upstream kinds the sandbox's API server serves built in (BMO, IPAM, CAPI, CAPM3), written
from the upstream generated CRDs; `dhcpless render` validates against them too when this
distribution is installed (entry-point group `dhcpless.crds`)."""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable


def crd_files() -> list[Traversable]:
    """The CRD files of this folder, in name order."""
    found = (f for f in resources.files(__name__).iterdir() if f.name.endswith(".yaml"))
    return sorted(found, key=lambda f: f.name)
