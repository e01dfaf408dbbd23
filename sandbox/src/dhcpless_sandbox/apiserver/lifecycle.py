"""Deletion: finalizers, `propagationPolicy`, ownerReference garbage collection, namespaces.

Like the real server, DELETE of an object with finalizers only stamps `deletionTimestamp`
(and `deletionGracePeriodSeconds: 0`); it disappears when an update removes the last finalizer.
What kube-controller-manager does asynchronously (the garbage collector, the namespace
controller) runs here synchronously right after the removal that triggers it, in the same lock
hold: dependents are gone (or terminating) when the owner's DELETE returns, which keeps tests
deterministic while the order of watch events stays the real one (owner first).
"""

from __future__ import annotations

import copy
from enum import StrEnum
from typing import Any

from dhcpless_sandbox.apiserver import meta
from dhcpless_sandbox.apiserver.api import Api, present
from dhcpless_sandbox.apiserver.kinds import ResourceType
from dhcpless_sandbox.apiserver.status import GroupResource, bad_request, conflict
from dhcpless_sandbox.apiserver.store import StorageKey

JSON = dict[str, Any]
FOREGROUND = "foregroundDeletion"
NAMESPACES: StorageKey = ("", "namespaces")


class Propagation(StrEnum):
    ORPHAN = "Orphan"
    BACKGROUND = "Background"
    FOREGROUND = "Foreground"


def parse_propagation(value: str | None) -> Propagation:
    try:
        return Propagation(value or "Background")
    except ValueError:
        raise bad_request(f"propagationPolicy: Unsupported value: {value!r}") from None


def delete(
    api: Api,
    rt: ResourceType,
    namespace: str,
    name: str,
    propagation: Propagation,
    preconditions: JSON,
    dry_run: bool = False,
) -> JSON:
    """DELETE one object; returns it (terminating, or as it was when removed)."""
    with api.store.lock:
        obj = api.existing(rt, namespace, name)
        _check_preconditions(rt.group_resource, obj, preconditions)
        if dry_run:
            return present(obj, rt)
        if propagation is Propagation.ORPHAN:
            _orphan_dependents(api, obj)
        return present(terminate(api, rt, obj, propagation), rt)


def _check_preconditions(gr: GroupResource, obj: JSON, pre: JSON) -> None:
    for key in ("uid", "resourceVersion"):
        if pre.get(key) and pre[key] != obj["metadata"].get(key):
            why = (
                f"Precondition failed: {key.title()} in precondition: {pre[key]}, "
                f"{key.title()} in object meta: {obj['metadata'].get(key)}"
            )
            raise conflict(gr, obj["metadata"]["name"], why)


def terminate(api: Api, rt: ResourceType, obj: JSON, propagation: Propagation) -> JSON:
    """Remove now, or mark terminating and let finalizers (or contents) hold it."""
    finalizers = list(obj["metadata"].get("finalizers") or [])
    foreground = propagation is Propagation.FOREGROUND and bool(
        api.store.dependents(obj["metadata"]["uid"])
    )
    if foreground and FOREGROUND not in finalizers:
        finalizers.append(FOREGROUND)
    if not finalizers and rt.storage_key != NAMESPACES:
        return api.remove(rt, obj)
    if obj["metadata"].get("deletionTimestamp") and not foreground:
        return obj
    marked = copy.deepcopy(obj)
    meta.mark_deleting(marked["metadata"], finalizers)
    if not finalizers:
        marked["metadata"].pop("finalizers")
    if rt.storage_key == NAMESPACES:
        marked.setdefault("status", {})["phase"] = "Terminating"
    stored = api.store.put(rt.storage_key, marked, obj)
    if hook := api.after_write.get(rt.storage_key):
        hook(stored, obj)
    if foreground:
        _collect_dependents(api, stored)
    if rt.storage_key == NAMESPACES:
        _empty_namespace(api, stored["metadata"]["name"])
    return stored


def type_for(api: Api, key: StorageKey) -> ResourceType | None:
    versions = api.registry.versions_of(*key)
    preferred = [t for t in versions if t.version == t.storage_version]
    return next(iter(preferred or versions), None)


def _orphan_dependents(api: Api, owner: JSON) -> None:
    uid = owner["metadata"]["uid"]
    for dep_uid in api.store.dependents(uid):
        dep, key = api.store.by_uid(dep_uid), api.store.key_of(dep_uid)
        if dep is not None and key is not None:
            _strip_owners(api, key, dep, {uid})


def _collect_dependents(api: Api, owner: JSON) -> None:
    """The garbage collector's look at each dependent of `owner` (removed, or waiting for its
    dependents in foreground): `_attempt_to_delete` each."""
    for dep_uid in api.store.dependents(owner["metadata"]["uid"]):
        dep, key = api.store.by_uid(dep_uid), api.store.key_of(dep_uid)
        if dep is not None and key is not None:
            attempt_to_delete(api, key, dep)


def classify(api: Api, dep: JSON) -> tuple[list[str], list[str], list[str]]:
    """`dep`'s owner UIDs as kubernetes `pkg/controller/garbagecollector/garbagecollector.go`
    `classifyReferences` sorts them: solid (live), dangling (absent), waiting (terminating
    with `foregroundDeletion`)."""
    found: tuple[list[str], list[str], list[str]] = ([], [], [])
    for ref in dep["metadata"].get("ownerReferences") or []:
        uid = str(ref.get("uid"))
        owner = api.store.by_uid(uid)
        held = owner is not None and owner["metadata"].get("deletionTimestamp")
        waits = held and FOREGROUND in (owner or {})["metadata"].get("finalizers", [])
        found[1 if owner is None else 2 if waits else 0].append(uid)
    return found


def attempt_to_delete(api: Api, key: StorageKey, dep: JSON) -> None:
    """`garbagecollector.go` `attemptToDeleteItem`: a dependent with a live owner keeps living,
    its dangling and waiting references stripped (a foreground owner's dependent that has
    another live owner is not deleted); else it is deleted, in foreground when a foreground
    owner waits and it has dependents of its own, else in background."""
    rt = type_for(api, key)
    if rt is None:
        return
    solid, dangling, waiting = classify(api, dep)
    if solid:
        if dangling or waiting:
            _strip_owners(api, key, dep, set(dangling) | set(waiting))
            for uid in waiting:
                _release_if_done(api, uid)
        return
    deep = bool(waiting) and bool(api.store.dependents(dep["metadata"]["uid"]))
    terminate(api, rt, dep, Propagation.FOREGROUND if deep else Propagation.BACKGROUND)


def _strip_owners(api: Api, key: StorageKey, dep: JSON, uids: set[str]) -> None:
    """The GC's patch removing the ownerReferences whose UIDs are `uids`."""
    new = copy.deepcopy(dep)
    refs = [r for r in dep["metadata"].get("ownerReferences") or [] if r.get("uid") not in uids]
    new["metadata"]["ownerReferences"] = refs
    if not refs:
        del new["metadata"]["ownerReferences"]
    api.store.put(key, new, dep)


def _release_if_done(api: Api, owner_uid: str) -> None:
    """A foreground owner with no dependents left loses `foregroundDeletion` (and goes)."""
    owner, key = api.store.by_uid(owner_uid), api.store.key_of(owner_uid)
    if owner is None or key is None or api.store.dependents(owner_uid):
        return
    if FOREGROUND in (owner["metadata"].get("finalizers") or []):
        _drop_finalizer(api, key, owner, FOREGROUND)


def _drop_finalizer(api: Api, key: StorageKey, obj: JSON, finalizer: str) -> None:
    new = copy.deepcopy(obj)
    rest = [f for f in new["metadata"].get("finalizers") or [] if f != finalizer]
    new["metadata"]["finalizers"] = rest
    rt = type_for(api, key)
    if not rest and rt is not None:
        del new["metadata"]["finalizers"]
        api.remove(rt, new)
    else:
        api.store.put(key, new, obj)


def _empty_namespace(api: Api, namespace: str) -> None:
    """The namespace controller: delete everything inside, then the namespace when empty."""
    for key, obj in api.store.namespaces_in_use(namespace):
        rt = type_for(api, key)
        if rt is not None and api.store.get(key, namespace, obj["metadata"]["name"]) is obj:
            terminate(api, rt, obj, Propagation.BACKGROUND)
    _finish_namespace(api, namespace)


def _finish_namespace(api: Api, namespace: str) -> None:
    ns = api.store.get(NAMESPACES, "", namespace)
    if ns is None or not ns["metadata"].get("deletionTimestamp"):
        return
    if next(api.store.namespaces_in_use(namespace), None) is None and not ns["metadata"].get(
        "finalizers"
    ):
        rt = type_for(api, NAMESPACES)
        if rt is not None:
            api.remove(rt, {**ns, "spec": {"finalizers": []}})


def on_removed(api: Api) -> None:
    """Install the garbage collector and namespace controller reactions on `api`."""

    def react(key: StorageKey, gone: JSON) -> None:
        _collect_dependents(api, gone)
        for ref in gone["metadata"].get("ownerReferences") or []:
            _release_if_done(api, str(ref.get("uid")))
        if namespace := gone["metadata"].get("namespace"):
            _finish_namespace(api, namespace)

    api.removed_hooks.append(react)
