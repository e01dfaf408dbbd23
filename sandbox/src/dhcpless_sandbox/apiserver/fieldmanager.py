"""Field ownership (`metadata.managedFields`) for every write, and server-side apply.

Behaviour from upstream (k8s.io/apimachinery `pkg/util/managedfields/internal/`, with
sigs.k8s.io/structured-merge-diff `merge/update.go` as the judge):
- every write records its fields for its manager (`fieldManager`, else the User-Agent prefix,
  k8s.io/apiserver `handlers/create.go` `managerOrUserAgent`). A non-apply write takes the
  fields it changes from every other manager, without conflict (operation `Update`);
- an apply (operation `Apply`) owns exactly the fields of its configuration. A field another
  manager owns and the configuration sets to a different value is a conflict, answered 409 with
  one cause per field (`internal/conflict.go` `NewConflictError`) unless `force` moves the
  field to the applier. Fields the applier owned before, omits now and nobody else owns are
  removed from the object.
The merge itself is in `apply_merge`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from dhcpless_sandbox.apiserver import meta
from dhcpless_sandbox.apiserver.admission import WriteOptions
from dhcpless_sandbox.apiserver.fieldpaths import Path, decode, encode, object_leaves, show
from dhcpless_sandbox.apiserver.kinds import ResourceType
from dhcpless_sandbox.apiserver.status import ApiError, Cause

JSON = dict[str, Any]
DEFAULT_MANAGER = "sandbox"
"""Who writes when a caller inside the process uses `Api` directly (the stand-ins)."""


@dataclass(frozen=True)
class ManagedOptions(WriteOptions):
    """WriteOptions plus who writes and, for an apply, the fields its configuration sets."""

    field_manager: str = DEFAULT_MANAGER
    force: bool = False
    subresource: str = ""
    applied: frozenset[Path] | None = None


@dataclass
class Entry:
    manager: str
    operation: str
    api_version: str
    subresource: str
    time: str
    fields: set[Path] = field(default_factory=set)

    def to_json(self) -> JSON:
        out: JSON = {"manager": self.manager, "operation": self.operation}
        out |= {"apiVersion": self.api_version, "time": self.time, "fieldsType": "FieldsV1"}
        out["fieldsV1"] = encode(self.fields)
        return out | ({"subresource": self.subresource} if self.subresource else {})


def entries(obj: JSON | None) -> list[Entry]:
    return [
        Entry(
            e.get("manager", ""),
            e.get("operation", "Update"),
            e.get("apiVersion", ""),
            e.get("subresource", ""),
            e.get("time", ""),
            decode(e.get("fieldsV1") or {}),
        )
        for e in ((obj or {}).get("metadata", {}).get("managedFields") or [])
    ]


def _leaves(rt: ResourceType, obj: JSON | None, subresource: str) -> dict[Path, Any]:
    return object_leaves(obj, rt.schema or {}, subresource, rt.status_subresource)


def record(rt: ResourceType, new: JSON, old: JSON | None, opts: WriteOptions, sub: str) -> None:
    """Update `new`'s managedFields for this write (see the module docstring)."""
    manager = opts.field_manager if isinstance(opts, ManagedOptions) else DEFAULT_MANAGER
    applied = opts.applied if isinstance(opts, ManagedOptions) else None
    before, after = _leaves(rt, old, sub), _leaves(rt, new, sub)
    changed = {p for p, v in after.items() if p not in before or before[p] != v}
    removed = set(before) - set(after)
    operation = "Update" if applied is None else "Apply"
    known = entries(new if new["metadata"].get("managedFields") else old)  # `meta.carry_over`
    mine = _find(known, manager, operation, sub)
    for entry in known:
        entry.fields -= removed | (changed if entry is not mine else set())
    owned = set(applied) if applied is not None else mine.fields | changed
    if owned != mine.fields or not mine.time:
        mine.fields, mine.api_version, mine.time = owned, rt.api_version, meta.now()
    kept = [e for e in known if e.fields]
    if kept:
        new["metadata"]["managedFields"] = [e.to_json() for e in kept]
    else:
        new["metadata"].pop("managedFields", None)


def _find(known: list[Entry], manager: str, operation: str, sub: str) -> Entry:
    for entry in known:
        if (entry.manager, entry.operation, entry.subresource) == (manager, operation, sub):
            return entry
    known.append(Entry(manager, operation, "", sub, ""))
    return known[-1]


def conflicts(rt: ResourceType, live: JSON, config: JSON, manager: str, sub: str) -> list[Cause]:
    """Fields of `config` that another manager owns with a different live value."""
    ours, theirs = _leaves(rt, config, sub), _leaves(rt, live, sub)
    found = []
    for entry in entries(live):
        if entry.manager == manager and entry.operation == "Apply":
            continue
        for path in sorted(entry.fields & set(ours)):
            if path in theirs and theirs[path] != ours[path]:
                found.append((entry, path))
    return [Cause("FieldManagerConflict", f"conflict with {_who(e)}", show(p)) for e, p in found]


def _who(entry: Entry) -> str:
    """internal/conflict.go `printManager`."""
    who = f'"{entry.manager}"'
    if entry.subresource:
        who += f' with subresource "{entry.subresource}"'
    if entry.operation == "Update":
        who += f" using {entry.api_version}" + (f" at {entry.time}" if entry.time else "")
    return who


def conflict_error(causes: list[Cause]) -> ApiError:
    """409 with upstream's message (internal/conflict.go `getConflictMessage`)."""
    if len(causes) == 1:
        message = f"Apply failed with 1 conflict: {causes[0].message}: {causes[0].field}"
    else:
        by_manager: dict[str, list[str]] = {}
        for cause in causes:
            who = cause.message.removeprefix("conflict with ")
            by_manager.setdefault(who, []).append(cause.field)
        lines = [
            line
            for who in sorted(by_manager)
            for line in (f"conflicts with {who}:", *(f"- {p}" for p in by_manager[who]))
        ]
        message = f"Apply failed with {len(causes)} conflicts: " + "\n".join(lines)
    return ApiError(409, "Conflict", message, causes=tuple(causes))


def previously_applied(live: JSON, manager: str, sub: str) -> tuple[set[Path], set[Path]]:
    """(fields this manager's last apply set, fields every other manager owns)."""
    mine: set[Path] = set()
    others: set[Path] = set()
    for entry in entries(live):
        if (entry.manager, entry.operation, entry.subresource) == (manager, "Apply", sub):
            mine |= entry.fields
        else:
            others |= entry.fields
    return mine, others


def leaves_of(rt: ResourceType, obj: JSON, sub: str) -> dict[Path, Any]:
    return _leaves(rt, copy.deepcopy(obj), sub)
