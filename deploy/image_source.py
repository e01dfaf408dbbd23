"""Prune a copy of the source to what the image serves, before the image builds its wheel.

The distribution carries the sandbox (an in-memory API server and stand-ins), the demo and the
bench for `pip install -e .` and the CLI; a function pod needs none of them. The Containerfile
runs this on its own copy of `shared/` (never on a checkout) so the installed package holds the
functions, the chain and the `dhcpless` CLI only; the CLI imports its tools lazily and says so
when one is absent. One list, `EXCLUDED`, so the test can build the same wheel.

    python deploy/image_source.py shared
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

EXCLUDED = ("dhcpless/sandbox", "dhcpless/tools/demo", "dhcpless/tools/bench")
"""Relative to `shared/`: the sandbox, the demo, the bench."""


def prune(shared: Path) -> list[Path]:
    """Remove every `EXCLUDED` path under `shared`; returns what was removed."""
    removed = sorted(path for pattern in EXCLUDED for path in shared.glob(pattern))
    for path in removed:
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()
    return removed


if __name__ == "__main__":
    if len(sys.argv) != 2 or not (Path(sys.argv[1]) / "dhcpless").is_dir():
        raise SystemExit("usage: image_source.py <the shared/ directory of a source copy>")
    for gone in prune(Path(sys.argv[1])):
        print(f"pruned {gone}")
