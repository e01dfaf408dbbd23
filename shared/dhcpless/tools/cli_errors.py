"""Which `dhcpless` errors are the user's to fix, and the one line that names each.

A user who gives a busy port, a path in a missing directory or a malformed kubeconfig should
read one line saying so, not a traceback; a traceback is kept for what is a bug.
"""

from __future__ import annotations

import errno
import os
import sys


class UsageError(Exception):
    """What the user gave cannot work; `cli.main` prints it as one line."""


def is_user_error(err: Exception) -> bool:
    """Errors a user causes and can fix. YAML errors count only if PyYAML was loaded (the
    command line never imports it just to check)."""
    yaml = sys.modules.get("yaml")
    fixable = (ModuleNotFoundError, UsageError, OSError, *((yaml.YAMLError,) if yaml else ()))
    return isinstance(err, fixable)


SANDBOX_COMMANDS = frozenset({"demo", "sandbox", "bench"})
"""The commands that run the embedded sandbox, whose modules come with the `sandbox` extra."""
SANDBOX_EXTRA_HINT = "pip install 'metal3-dhcpless[sandbox]'"


def problem(err: Exception, port: int | None = None, command: str = "") -> str:
    """One line naming what went wrong."""
    if isinstance(err, ModuleNotFoundError) and err.name and command in SANDBOX_COMMANDS:
        missing = err.name.split(".")[0]  # no name: a message of our own (e.g. GleanMissing)
        if missing != "dhcpless":  # our own package missing a module is a bug, said as is
            return f"needs the sandbox extra ({missing} is not installed): {SANDBOX_EXTRA_HINT}"
    mark = getattr(err, "problem_mark", None)  # a YAML error, e.g. in the kubeconfig
    if mark is not None:
        source = mark.name if not mark.name.startswith("<") else os.environ.get("KUBECONFIG")
        where = f"{source or 'input'}:{mark.line + 1}:{mark.column + 1}"
        return f"malformed YAML at {where}: {getattr(err, 'problem', None) or err}"
    if isinstance(err, OSError) and err.errno == errno.EADDRINUSE:
        return f"port {port} is already in use (choose another --port, or 0 for any)"
    if isinstance(err, OSError) and err.filename:
        return f"{err.filename}: {err.strerror or err}"
    if isinstance(err, OSError):
        return err.strerror or str(err)
    return str(err)
