"""The shape of the package, walked from its import graph and its files (CONTRIBUTING "Layout").

Three rules a newcomer can rely on: imports never go round in a circle (so every module can be
read, and loaded, on its own); the package root holds only the core every layer shares, and
everything else lives in the sub-package named for its layer; and no module grows past what
one sitting can read.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import grimp
import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "shared" / "dhcpless"
FUNCTIONS = REPO / "functions"
SANDBOX = REPO / "sandbox" / "src" / "dhcpless_sandbox"
"""The sandbox distribution's package: held to the same shape (cycles, length, docstrings)."""
CORE = frozenset(
    {
        "__init__",
        "errors",
        "limits",
        "names",
        "reasons",
        "refs",
        "registry",
        "settings",
        "tracing",
    }
)
"""Modules allowed at the package root: what every layer may import."""
LAYERS = frozenset(
    {
        "chain",
        "crds",
        "keys",
        "kube",
        "models",
        "render",
        "serving",
        "templates",
        "tools",
    }
)
"""Sub-packages of the root, one per layer (CONTRIBUTING "Layout")."""
MAX_LINES = 220


def _strongly_connected(graph: Mapping[str, set[str]]) -> Iterator[list[str]]:
    """Tarjan's algorithm, iterative: every set of modules that import each other in a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, set())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        yield sorted(component)


def _import_graph() -> dict[str, set[str]]:
    """Runtime imports between our modules (`if TYPE_CHECKING:` imports cannot form a cycle)."""
    graph = grimp.build_graph(
        "dhcpless", "functions", "dhcpless_sandbox", exclude_type_checking_imports=True
    )
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def _modules() -> list[Path]:
    return sorted([*PACKAGE.rglob("*.py"), *FUNCTIONS.rglob("*.py"), *SANDBOX.rglob("*.py")])


@pytest.mark.parametrize(
    ("graph", "cycles"),
    [
        pytest.param({"a": {"b"}, "b": {"c"}, "c": set()}, [], id="chain"),
        pytest.param({"a": {"b"}, "b": {"a"}}, [["a", "b"]], id="two"),
        pytest.param(
            {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]], id="three"
        ),
    ],
)
def test_cycle_finder(graph: dict[str, set[str]], cycles: list[list[str]]) -> None:
    assert list(_strongly_connected(graph)) == cycles


def test_no_import_cycles() -> None:
    assert list(_strongly_connected(_import_graph())) == []


def test_the_root_holds_only_the_core() -> None:
    modules = {p.stem for p in PACKAGE.glob("*.py")}
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert modules - CORE == set()
    assert packages - LAYERS == set()


def test_every_package_says_what_it_is_for() -> None:
    undocumented = [
        str(init.relative_to(REPO))
        for init in [*PACKAGE.rglob("__init__.py"), *SANDBOX.rglob("__init__.py")]
        if not init.read_text().lstrip().startswith('"""')
    ]
    assert undocumented == []


def test_no_module_is_too_long_to_read_in_one_sitting() -> None:
    lengths = {str(p.relative_to(REPO)): len(p.read_text().splitlines()) for p in _modules()}
    assert {path: n for path, n in lengths.items() if n >= MAX_LINES} == {}


def _contract(start: str) -> dict[str, Any]:
    contracts = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]
    (found,) = [c for c in contracts["contracts"] if c["name"].startswith(start)]
    return dict(found)


def _children(package: Path, prefix: str) -> set[str]:
    """The modules and packages directly under `package`, as dotted names."""
    names = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    names |= {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}
    return {f"{prefix}.{name}" for name in names}


def test_the_sandboxs_world_may_take_only_models_keys_and_crds() -> None:
    """The contract forbids every other part of the product, so a new one is forbidden too."""
    allowed = {"dhcpless.models", "dhcpless.keys", "dhcpless.crds"}
    product = _children(PACKAGE, "dhcpless") - allowed | {"functions"}
    forbidden = set(_contract("the sandbox's API server")["forbidden_modules"])
    assert forbidden == product


def test_only_the_runtime_of_the_sandbox_may_import_the_functions() -> None:
    """The contract names every part of the sandbox but its runtime, so a new part is held."""
    parts = _children(SANDBOX, "dhcpless_sandbox") - {"dhcpless_sandbox.runtime"}
    assert set(_contract("only the sandbox's runtime")["source_modules"]) == parts
