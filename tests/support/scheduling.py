"""How pytest-xdist deals the tests out: one by one, except modules kept together.

xdist's own `--dist loadgroup` renames test ids to carry the `xdist_group` mark, which pytest 9
no longer lets it do (a node's id is not a settable attribute any more), so the marks would be
ignored. This scheduler groups by the test id instead: every test of a module listed in
`tests.conftest.KEPT_TOGETHER` is one work unit (its expensive module fixture is built once, in
one worker); every other test is a unit of its own.
"""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]


class KeptTogether(LoadScopeScheduling):  # type: ignore[misc]
    """xdist's scope scheduler with our scopes: a kept-together module, or a single test."""

    kept: tuple[str, ...] = ()

    def _split_scope(self, nodeid: str) -> str:
        module = nodeid.split("::", 1)[0]
        return module if module in self.kept else nodeid
