"""No module re-exports names it imports: a caller imports the module that defines the name.

The world modules were split into small ones, and the originals re-exported the pieces' names
for old imports; those shims are gone (issue 29), so a name has one import path and a reader
finds its definition where the import says. `MOVED` is the record of the split: each name must
live in its new home and nowhere else. The scan holds every module of the sandbox distribution
and of the product's tools to it: no imported name listed in `__all__`, no `import x as x`.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCANNED = (REPO / "sandbox" / "src" / "dhcpless_sandbox", REPO / "shared" / "dhcpless" / "tools")

MOVED = {
    "dhcpless_sandbox.eventing.eventsource": {
        "dhcpless_sandbox.controllers.reflector": [
            "WatchEvent",
            "WatchedResource",
            "Reflector",
            "ListHandler",
        ],
        "dhcpless_sandbox.eventing.source_events": ["Mode", "make_event", "guess_plural"],
        "dhcpless_sandbox.eventing.faults": ["Faults"],
    },
    "dhcpless_sandbox.eventing.broker": {
        "dhcpless_sandbox.eventing.delivery": [
            "BackoffPolicy",
            "Outcome",
            "Delivery",
            "Subscriber",
            "UrlSubscriber",
        ],
        "dhcpless_sandbox.eventing.filters": [
            "Filter",
            "subscriptions_filter",
            "attributes_filter",
            "trigger_filter",
        ],
    },
    "dhcpless_sandbox.standins.ipam": {
        "dhcpless_sandbox.standins.ipam_spec": ["IP", "Network", "PoolEntry", "PoolSpec"],
        "dhcpless_sandbox.standins.allocation": [
            "Allocation",
            "AllocationFailed",
            "allocate",
            "address_name",
        ],
        "dhcpless_sandbox.standins.ip_ranges": ["candidates"],
    },
    "dhcpless_sandbox.standins.bmo": {
        "dhcpless_sandbox.standins.ramdisk": ["GleanMode", "BootResult", "ramdisk_boot"],
        "dhcpless_sandbox.standins.bmh_status": [
            "host_status",
            "missing_secret_message",
            "network_data_from_secret",
        ],
    },
    "dhcpless_sandbox.runtime.runner": {
        "dhcpless_sandbox.controllers.workqueue": ["WorkQueue", "Handler"]
    },
    "dhcpless_sandbox.runtime.world": {
        "dhcpless_sandbox.runtime.wiring": [
            "DELIVERY",
            "TRIGGER_FILTERS",
            "SOURCES",
            "function_factory",
        ]
    },
    "dhcpless_sandbox.demo.run": {
        "dhcpless_sandbox.demo.inventory": ["inventory", "host", "create", "NAMESPACE", "POOL"],
        "dhcpless_sandbox.demo.report": ["HostRow", "observe", "report", "print_table", "Progress"],
    },
}
ROWS = [
    pytest.param(old, name, new, id=f"{old.rsplit('.', 1)[1]}.{name}")
    for old, homes in MOVED.items()
    for new, names in homes.items()
    for name in names
]


@pytest.mark.parametrize(("old", "name", "new"), ROWS)
def test_name_lives_in_its_home_only(old: str, name: str, new: str) -> None:
    assert hasattr(importlib.import_module(new), name)
    assert name not in getattr(importlib.import_module(old), "__all__", ())


def reexports(source: str) -> list[str]:
    """The names `source` imports and then exports: listed in `__all__`, or `as` themselves."""
    tree = ast.parse(source)
    exported: set[str] = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        targets += [node.target] if isinstance(node, ast.AugAssign) else []
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            value = node.value if isinstance(node, ast.Assign | ast.AugAssign) else None
            if isinstance(value, ast.List | ast.Tuple):
                exported |= {str(e.value) for e in value.elts if isinstance(e, ast.Constant)}
    found = []
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                local = alias.asname or alias.name
                if local in exported or alias.asname == alias.name:
                    found.append(local)
    return found


@pytest.mark.parametrize(
    ("source", "found"),
    [
        pytest.param("from a.b import C\n__all__ = ['C']\n", ["C"], id="all"),
        pytest.param("from a.b import C\n__all__ = []\n__all__ += ['C']\n", ["C"], id="all+="),
        pytest.param("from a.b import C as C\n", ["C"], id="as-itself"),
        pytest.param("import a.b as b\n", [], id="module-alias"),
        pytest.param("from a.b import C\nD = 1\n__all__ = ['D']\n", [], id="own-name"),
    ],
)
def test_reexports_finds_them(source: str, found: list[str]) -> None:
    assert reexports(source) == found


def test_no_module_reexports() -> None:
    files = sorted(path for root in SCANNED for path in root.rglob("*.py"))
    assert files
    found = {str(p.relative_to(REPO)): names for p in files if (names := reexports(p.read_text()))}
    assert found == {}
