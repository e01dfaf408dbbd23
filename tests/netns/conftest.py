"""The netns tier's fixtures: a `Lab` per test, skipped (saying why) where the machine cannot.

The tier needs root, `ip netns` and the Debian packages of `scripts/netns_packages.py`, which
the README's test command (`scripts/dev.py test`) installs on a fresh Debian machine. Where no
namespace can be made (not root, no `ip netns`) the tier skips with the reason printed; where
one can but a package is missing, each test fails naming it (CONTRIBUTING: a missing
prerequisite is a failure). A kernel without a link kind (no 8021q or bonding) skips the rows
that need it, saying so.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.netns import Lab, cannot_run, ip

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _packages_missing() -> list[str]:
    spec = importlib.util.spec_from_file_location("netns_packages", SCRIPTS / "netns_packages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found: list[str] = module.missing()
    return found


_cannot_run = functools.cache(cannot_run)
"""Probed once per process: it makes and deletes a namespace."""


def skip_unless_possible() -> None:
    """Skip (saying why) where the machine cannot make namespaces; fail where it can but
    the packages are missing: a missing prerequisite is a failure that names it."""
    if reason := _cannot_run():
        print(f"tests/netns skipped: {reason}", file=sys.stderr)
        pytest.skip(reason)
    if absent := _packages_missing():
        pytest.fail(
            f"tests/netns needs the Debian packages {', '.join(absent)}: "
            "`python3 scripts/dev.py test` installs them (scripts/netns_packages.py)"
        )


@functools.cache
def kernel_lacks() -> frozenset[str]:
    """The link kinds (`vlan`, `bond`) this kernel cannot make in a namespace (no 8021q or
    bonding module, and no way to load one): rows needing them skip, saying so."""
    lacking = set()
    with Lab() as lab:
        name = lab.namespace("probe")
        ip("-n", name, "link", "add", "name", "pa", "type", "veth", "peer", "name", "pb")
        kinds = {"vlan": ("link", "pa", "name", "pa.5", "type", "vlan", "id", "5"),
                 "bond": ("name", "bond9", "type", "bond")}  # fmt: skip
        for kind, args in kinds.items():
            try:
                ip("-n", name, "link", "add", *args)
            except RuntimeError:
                lacking.add(kind)
    return frozenset(lacking)


def skip_unless_kernel_has(kinds: set[str]) -> None:
    if lacking := kinds & kernel_lacks():
        reason = f"this kernel cannot make {', '.join(sorted(lacking))} links in a namespace"
        print(f"tests/netns: {reason}", file=sys.stderr)
        pytest.skip(reason)


@pytest.fixture
def lab() -> Iterator[Lab]:
    """Namespaces, veths and processes of one test, all removed after it (failed or not)."""
    skip_unless_possible()
    with Lab() as made:
        yield made
