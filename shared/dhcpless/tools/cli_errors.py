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


def problem(err: Exception, port: int | None = None) -> str:
    """One line naming what went wrong."""
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
