"""The garbage collector on writes: an object created after its owner was deleted is collected.

The GC does not only react to an owner's removal (`lifecycle`): its graph builder watches every
object (kubernetes `pkg/controller/garbagecollector/graph_builder.go`, `processGraphChanges`),
and an object added (or given owners) whose owners are not in the graph gets them as virtual
nodes; `attemptToDeleteItem` finds them absent, and the dependent, whose references all dangle
(`classifyReferences`), is deleted like any orphan (one with a live owner loses the dangling
references). Without it a claim or Secret written for a host deleted a moment before lived for
ever in the sandbox, where a cluster collects it. As the rest of the sandbox's GC, it runs
synchronously, right after the commit that made the object. Only owners the server had and
removed count: a reference to a UID it never had (a test's stand-in owner) is left alone,
where the real GC would delete the dependent too.
"""

from __future__ import annotations

from typing import Any

from dhcpless_sandbox.apiserver import lifecycle
from dhcpless_sandbox.apiserver.api import Api

JSON = dict[str, Any]


def owned_by_the_gone(api: Api, gone: set[str], obj: JSON, old: JSON | None) -> None:
    """After a commit: `obj` was written with owners it did not have, one of them deleted
    before (its UID in `gone`): `lifecycle.attempt_to_delete` judges it (deleted with no live
    owner left, else the references to absent owners stripped)."""
    meta = obj["metadata"]
    refs = meta.get("ownerReferences") or []
    before = (old or {}).get("metadata", {}).get("ownerReferences") or []
    key = api.store.key_of(meta["uid"])
    if not refs or refs == before or meta.get("deletionTimestamp") or key is None:
        return
    if any(str(r.get("uid")) in gone for r in refs) and lifecycle.classify(api, obj)[1]:
        lifecycle.attempt_to_delete(api, key, obj)


def install(api: Api) -> None:
    """The GC and the namespace controller (`lifecycle.on_removed`), and this on every write;
    the UIDs of removed objects are kept for it (the GC's graph knew them)."""
    lifecycle.on_removed(api)
    gone: set[str] = set()
    api.removed_hooks.append(lambda _, removed: gone.add(str(removed["metadata"]["uid"])))
    api.written_hooks.append(lambda stored, old: owned_by_the_gone(api, gone, stored, old))
