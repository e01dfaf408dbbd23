"""Serve without running `kubernetes/__init__.py`: its eager imports are most of a cold start.

`import kubernetes.client` first runs the package's `__init__`, which imports `config`
(requests and OAuth libraries), `dynamic`, `watch`, `stream`, `leaderelection` and `informer`:
about 0.25-0.5 s and tens of MB a function never uses (README "Performance"). `install`
registers a bare `kubernetes` package module (same `__path__` and `__spec__`, its submodules
imported on first attribute access), so `kubernetes.client` loads alone.

Only serving entry points call it, before anything imports `kubernetes`: the gunicorn config
of the images (deploy/gunicorn_conf.py), `dhcpless.serving.gunicorn_slim` (the process runner's) and
`dhcpless serve`. Importing this module installs nothing; tests and tools import `kubernetes`
normally.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types

PACKAGE = "kubernetes"


def install() -> bool:
    """Register the bare package; False (and nothing done) once `kubernetes` is imported."""
    if PACKAGE in sys.modules:
        return False
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.submodule_search_locations is None:
        return False
    module = types.ModuleType(PACKAGE)
    module.__spec__ = spec
    module.__path__ = list(spec.submodule_search_locations)
    module.__file__ = spec.origin
    module.__getattr__ = _submodule  # type: ignore[method-assign]
    sys.modules[PACKAGE] = module
    return True


def installed() -> bool:
    """Whether the `kubernetes` module in use is the bare one."""
    return getattr(sys.modules.get(PACKAGE), "__getattr__", None) is _submodule


def _submodule(name: str) -> types.ModuleType:
    """`kubernetes.config` and friends, imported when first used (as the real package has)."""
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return importlib.import_module(f"{PACKAGE}.{name}")
    except ModuleNotFoundError:
        raise AttributeError(f"module {PACKAGE!r} has no attribute {name!r}") from None
