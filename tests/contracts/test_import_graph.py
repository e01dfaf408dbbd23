"""The shape of the package, walked from its import graph and its files (CONTRIBUTING "Layout").

Three rules a newcomer can rely on: imports never go round in a circle (so every module can be
read, and loaded, on its own); the package root holds only the core every layer shares, and
everything else lives in the sub-package named for its layer; and no module grows past what
one sitting can read.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import grimp
import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "shared" / "dhcpless"
FUNCTIONS = REPO / "functions"
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
        "sandbox",
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
    graph = grimp.build_graph("dhcpless", "functions", exclude_type_checking_imports=True)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def _modules() -> list[Path]:
    return sorted([*PACKAGE.rglob("*.py"), *FUNCTIONS.rglob("*.py")])


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
        for init in PACKAGE.rglob("__init__.py")
        if not init.read_text().lstrip().startswith('"""')
    ]
    assert undocumented == []


def test_no_module_is_too_long_to_read_in_one_sitting() -> None:
    lengths = {str(p.relative_to(REPO)): len(p.read_text().splitlines()) for p in _modules()}
    assert {path: n for path, n in lengths.items() if n >= MAX_LINES} == {}
