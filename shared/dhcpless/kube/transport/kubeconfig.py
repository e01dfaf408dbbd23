"""Which kubeconfig files count, and what they say merged: kubectl's rules, not a first guess.

kubectl (client-go `tools/clientcmd/loader.go`, `ClientConfigLoadingRules.Load`) reads every
file of a colon-separated `KUBECONFIG` and merges them: for clusters, users and contexts the
first file that names an entry wins, and so does the first `current-context`; files of the list
that do not exist are skipped. `--kubeconfig` names one file, which must exist. A person who
points `KUBECONFIG` only at missing files, or at something that is not a kubeconfig (a binary,
broken YAML), gets one line naming the file, never "not in a cluster" or a traceback.
Relative paths inside a file (`certificate-authority`, `tokenFile`) are taken relative to that
file, as client-go's `ResolveLocalPaths` does.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

JSON = dict[str, Any]
SECTIONS = {"clusters": "cluster", "users": "user", "contexts": "context"}
LOCAL_PATHS = {
    "cluster": ("certificate-authority",),
    "user": ("client-certificate", "client-key", "tokenFile"),
}


class KubeconfigError(OSError):
    """A kubeconfig cannot be used as given; the message names the file (one line)."""


def paths(env: Mapping[str, str], explicit: str | None = None) -> tuple[Path, ...]:
    """The files to merge, in precedence order; empty when none is configured at all."""
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise KubeconfigError(f"--kubeconfig {path}: no such file")
        return (path,)
    named = [Path(p).expanduser() for p in env.get("KUBECONFIG", "").split(os.pathsep) if p]
    if named:
        found = tuple(p for p in named if p.is_file())
        if not found:
            listed = os.pathsep.join(str(p) for p in named)
            raise KubeconfigError(f"KUBECONFIG={listed}: no such file")
        return found
    default = Path("~/.kube/config").expanduser()
    return (default,) if default.is_file() else ()


def load(path: Path) -> JSON:
    """One file as a mapping, its local paths made absolute; one clear line if it is not one."""
    try:
        document = yaml.safe_load(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        raise KubeconfigError(f"kubeconfig {path}: not a text file") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark is not None else str(path)
        what = getattr(err, "problem", None) or "not valid YAML"
        raise KubeconfigError(f"kubeconfig: malformed YAML at {where}: {what}") from None
    if document is None:
        document = {}
    if not isinstance(document, dict):
        raise KubeconfigError(f"kubeconfig {path}: not a kubeconfig (a YAML mapping)")
    return _resolved(document, path.parent)


def _resolved(document: JSON, base: Path) -> JSON:
    out = dict(document)
    for section, key in SECTIONS.items():
        entries = document.get(section) or []
        if not isinstance(entries, list):
            raise KubeconfigError(f"kubeconfig: {section} is not a list")
        out[section] = [_entry(e, key, base) for e in entries if isinstance(e, dict)]
    return out


def _entry(entry: JSON, key: str, base: Path) -> JSON:
    body = dict(entry.get(key) or {})
    for field in LOCAL_PATHS.get(key, ()):
        if isinstance(body.get(field), str) and body[field]:
            body[field] = str(base / body[field])  # an absolute path stays as it is
    return {**entry, key: body}


def merged(files: Sequence[Path]) -> JSON:
    """The files merged the way kubectl merges them: the first to set a name wins."""
    result: JSON = {section: [] for section in SECTIONS}
    for path in files:
        document = load(path)
        if document.get("current-context") and not result.get("current-context"):
            result["current-context"] = document["current-context"]
        for section in SECTIONS:
            known = {e.get("name") for e in result[section]}
            result[section] += [e for e in document[section] if e.get("name") not in known]
    return result
