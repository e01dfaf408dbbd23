"""ObjectMeta rules the server owns: names, uids, timestamps, generation, immutable fields."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime
from typing import Any

from dhcpless_sandbox.apiserver import names
from dhcpless_sandbox.apiserver.kinds import ResourceType
from dhcpless_sandbox.apiserver.status import Cause, bad_request, invalid

JSON = dict[str, Any]

OBJECT_META_KEYS = frozenset(
    {
        "name",
        "generateName",
        "namespace",
        "uid",
        "resourceVersion",
        "generation",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "labels",
        "annotations",
        "ownerReferences",
        "finalizers",
        "managedFields",
        "selfLink",
    }
)
SERVER_OWNED = ("uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds")

_RANDOM_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"


def now() -> str:
    """RFC 3339 with second precision, as metav1.Time serialises."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def check_meta_types(meta: Any) -> None:
    """Wrong JSON types in metadata fail decoding on the real server: a 400."""
    if not isinstance(meta, dict):
        raise bad_request("metadata must be an object")
    for key in ("labels", "annotations"):
        value = meta.get(key)
        if value is not None and not (
            isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
        ):
            raise bad_request(f"json: cannot unmarshal metadata.{key}: must be map[string]string")
    for key in ("finalizers", "ownerReferences"):
        if meta.get(key) is not None and not isinstance(meta[key], list):
            raise bad_request(f"json: cannot unmarshal metadata.{key}: must be a list")


def coerce_nulls(meta: JSON) -> None:
    """Metadata fields sent as null are dropped, as the real server's decoding drops them
    (apiextensions-apiserver `pkg/apiserver/schema/objectmeta/coerce.go`, `Coerce`: a round
    trip through `metav1.ObjectMeta`, whose null maps and lists are omitted)."""
    for key in [k for k, v in meta.items() if v is None]:
        del meta[key]


def name_for_create(rt: ResourceType, meta: JSON) -> str:
    """The name a create will use: given, or `generateName` plus five random characters."""
    name = meta.get("name") or ""
    if not name and meta.get("generateName"):
        suffix = "".join(random.choice(_RANDOM_ALPHABET) for _ in range(5))
        name = str(meta["generateName"])[:58] + suffix
    if not name:
        cause = Cause(
            "FieldValueRequired",
            "Required value: name or generateName is required",
            "metadata.name",
        )
        raise invalid(rt.kind, rt.group, "", [cause])
    if _legacy_event(rt):
        return name
    if causes := names.name_causes(name, namespace_like=rt.kind == "Namespace"):
        raise invalid(rt.kind, rt.group, name, causes)
    return name


def _legacy_event(rt: ResourceType) -> bool:
    """core/v1 Events keep their names unchecked: k8s.io/kubernetes `pkg/apis/core/validation/
    events.go` `ValidateEventCreate` returns after the legacy checks for that version ("for
    backwards compatibility"), so BMO's `generateName: Registered-` is accepted; only
    events.k8s.io/v1 Events must have DNS-subdomain names."""
    return rt.group == "" and rt.kind == "Event"


def stamp_new(obj: JSON, rt: ResourceType, name: str, namespace: str) -> None:
    """Fill the server-owned metadata of an object being created."""
    meta = obj["metadata"]
    meta.update(name=name, uid=str(uuid.uuid4()), creationTimestamp=now())
    for key in (
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "resourceVersion",
        "selfLink",
        "managedFields",
    ):
        meta.pop(key, None)
    if rt.namespaced:
        meta["namespace"] = namespace
    else:
        meta.pop("namespace", None)
    if rt.has_generation:
        meta["generation"] = 1
    else:
        meta.pop("generation", None)


def spec_like(obj: JSON, rt: ResourceType) -> JSON:
    """The part of an object whose change bumps `generation`."""
    skip = {"metadata", "apiVersion", "kind"} | ({"status"} if rt.status_subresource else set())
    return {k: v for k, v in obj.items() if k not in skip}


def carry_over(new: JSON, old: JSON, rt: ResourceType) -> None:
    """Keep what clients cannot change on update; bump generation on spec-like changes."""
    meta, old_meta = new["metadata"], old["metadata"]
    given = meta.get("managedFields")
    for key in SERVER_OWNED:
        if key in old_meta:
            meta[key] = old_meta[key]
        else:
            meta.pop(key, None)
    for key in ("selfLink", "managedFields", "generateName"):
        meta.pop(key, None)
    if "managedFields" in old_meta:  # the field manager updates them after this
        meta["managedFields"] = old_meta["managedFields"]
    if _usable_managed_fields(given):  # a client may rewrite them (kubectl's CSA -> SSA move)
        meta["managedFields"] = given
    if "generateName" in old_meta:
        meta["generateName"] = old_meta["generateName"]
    if not rt.has_generation:
        meta.pop("generation", None)
        return
    generation = int(old_meta.get("generation", 1))
    changed = spec_like(new, rt) != spec_like(old, rt)
    meta["generation"] = generation + 1 if changed else generation


def _usable_managed_fields(given: Any) -> bool:
    """k8s.io/apimachinery `pkg/util/managedfields/internal/fieldmanager.go` `Update`: managed
    fields a client sends are used when they decode and are not empty; otherwise the live
    object's are kept, so a client that does not know them cannot drop them by accident."""
    return (
        isinstance(given, list)
        and bool(given)
        and all(
            isinstance(e, dict)
            and isinstance(e.get("manager"), str)
            and e.get("operation") in ("Apply", "Update")
            and isinstance(e.get("fieldsV1", {}), dict)
            for e in given
        )
    )


def mark_deleting(meta: JSON, finalizers: list[str]) -> None:
    """Stamp `deletionTimestamp` (grace period 0: no kind here deletes gracefully) and the
    finalizers that hold the object. The first stamp bumps `generation`, as k8s.io/apiserver
    `pkg/registry/generic/registry/store.go` `markAsDeleting` does for kinds without graceful
    deletion: controllers that filter updates by generation (BMO's `updateEventHandler`,
    `standins.bmo_predicate`) see the delete."""
    if not meta.get("deletionTimestamp") and meta.get("generation"):
        meta["generation"] = int(meta["generation"]) + 1
    meta.update(deletionTimestamp=now(), deletionGracePeriodSeconds=0, finalizers=finalizers)
