"""Sub-commands another distribution adds to `dhcpless`: the sandbox's `demo`, `sandbox`, `bench`.

The product never imports the sandbox (an import contract). An installed distribution names
each command in the entry-point group `GROUP`, whose value has the shape of `Command`. A
sandbox command whose distribution is absent (the image, a plain `pip install
metal3-dhcpless`) is still listed, and says in one line which distribution to install.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from importlib.util import find_spec
from typing import Protocol

from dhcpless.tools.cli_errors import SANDBOX_EXTRA_HINT, UsageError

GROUP = "dhcpless.commands"
SANDBOX_DISTRIBUTION = "metal3-dhcpless-sandbox"
ANY_ARGUMENTS = "any_arguments"
"""Set on an `Absent` command's arguments: whatever follows it, the one line is the answer."""


class Command(Protocol):
    """One sub-command: its help line, its arguments, its runner (exit status)."""

    @property
    def help(self) -> str: ...

    @property
    def arguments(self) -> Callable[[argparse.ArgumentParser], None]: ...

    @property
    def run(self) -> Callable[[argparse.Namespace], int]: ...


def installed() -> dict[str, Command]:
    """The commands the installed distributions advertise, by name (loaded: each is a small
    module that imports its world only when it runs). Metadata whose package cannot be found
    (a half-removed install, a path without it) advertises nothing."""
    points = entry_points(group=GROUP)
    present = [p for p in points if find_spec(p.module.partition(".")[0]) is not None]
    return {point.name: point.load() for point in present}


@dataclass(frozen=True)
class Absent:
    """A sandbox command without its distribution: any arguments, then the one line."""

    name: str

    @property
    def help(self) -> str:
        return f"(needs {SANDBOX_DISTRIBUTION}, not installed)"

    @property
    def arguments(self) -> Callable[[argparse.ArgumentParser], None]:
        return lambda parser: parser.set_defaults(**{ANY_ARGUMENTS: True})

    @property
    def run(self) -> Callable[[argparse.Namespace], int]:
        return self._refuse

    def _refuse(self, args: argparse.Namespace) -> int:
        raise UsageError(
            f"needs the sandbox distribution ({SANDBOX_DISTRIBUTION} is not installed): "
            f"{SANDBOX_EXTRA_HINT}"
        )
