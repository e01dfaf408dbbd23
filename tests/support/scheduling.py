"""How pytest-xdist deals the tests out: longest first, one by one, except modules kept together.

xdist's own `--dist loadgroup` renames test ids to carry the `xdist_group` mark, which pytest 9
no longer lets it do (a node's id is not a settable attribute any more), so the marks would be
ignored. This scheduler groups by the test id instead: every test of a module listed in
`conftest.KEPT_TOGETHER` is one work unit (its expensive module fixture is built once, in
one worker); every other test is a unit of its own.

Units are started longest first (`conftest.LONGEST_FIRST`, measured with `--durations`):
a worker hands out units as workers ask for more, so a long unit started last keeps one worker
busy while the others sit idle at the end of the run. Started first, the short ones fill in
around it and the workers end together.
"""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]


def longest_first(units: list[str], first: tuple[str, ...]) -> list[str]:
    """`units` with those matching a prefix of `first` at the front, in the order of `first`;
    the others keep their order."""
    rank = {
        unit: next((i for i, p in enumerate(first) if unit.startswith(p)), len(first))
        for unit in units
    }
    return sorted(units, key=rank.__getitem__)  # a stable sort keeps the order within a rank


class KeptTogether(LoadScopeScheduling):  # type: ignore[misc]
    """xdist's scope scheduler with our scopes (a kept-together module, or a single test),
    started longest first."""

    kept: tuple[str, ...] = ()
    first: tuple[str, ...] = ()
    _ordered = False

    def _split_scope(self, nodeid: str) -> str:
        module = nodeid.split("::", 1)[0]
        return module if module in self.kept else nodeid

    def _assign_work_unit(self, node: object) -> None:
        """Before the first unit is handed out, put the longest units at the front."""
        if not self._ordered:
            self._ordered = True
            for unit in reversed(longest_first(list(self.workqueue), self.first)):
                self.workqueue.move_to_end(unit, last=False)
        super()._assign_work_unit(node)
