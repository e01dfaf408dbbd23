"""Which watched BareMetalHost updates BMO reconciles: not its own status writes (pure).

baremetal-operator filters host update events (`internal/controller/metal3.io/
baremetalhost_controller.go`, `updateEventHandler`, the controller's event filter): an update
is processed when `metadata.generation` changed (a spec change), or the finalizers or the
annotations did (the pause among them); anything else, such as a status write (its own, at
every transition), is discarded, and BMO moves on by the requeue its reconcile returns. The
stand-in re-queued on every status write (about 180 reconciles a second in the 300-host demo,
each reading the host again for nothing). Creations, relists and deletions always count.
"""

from __future__ import annotations

from collections.abc import Hashable, MutableMapping
from typing import Any

from dhcpless_sandbox.controllers.reflector import WatchEvent

Mark = tuple[Any, tuple[str, ...], tuple[tuple[str, str], ...]]
"""generation, finalizers, annotations: what `updateEventHandler` compares."""


def mark(obj: dict[str, Any]) -> Mark:
    meta = obj.get("metadata") or {}
    annotations = tuple(sorted((meta.get("annotations") or {}).items()))
    return meta.get("generation"), tuple(meta.get("finalizers") or ()), annotations


def worth_reconciling(
    last: MutableMapping[Any, Mark], key: Hashable, obj: dict[str, Any], kind: WatchEvent
) -> bool:
    """Record `obj`'s mark under `key`; True unless it is an update that changed none of it."""
    now, before = mark(obj), last.get(key)
    last[key] = now
    return kind is not WatchEvent.MODIFIED or before is None or before != now
