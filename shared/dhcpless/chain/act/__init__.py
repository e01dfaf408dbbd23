"""Act: perform the decided actions through the adapter, and nothing else (no choices here).

Writes first, in the order decided, then the Events that report them. Creates are conditional
writes: one that finds an object under our name stops the round and raises `Found` with that
object read back, so the pipeline decides again knowing it (`chain.pipeline`); whether it is
ours, a predecessor's or someone else's is for `decide` (`chain.identity`). The release is one
JSON patch whose `test` ops make it conditional (`chain.patches.release_patch`): if someone
changed the host since we read it, the adapter raises PreconditionFailed (503) and the retry
reads and decides again.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Protocol

from dhcpless import tracing
from dhcpless.chain.act.summary import summary
from dhcpless.chain.actions import (
    Action,
    CreateIPAddressClaim,
    CreateIPClaim,
    DeleteIPClaim,
    LendClaim,
    NudgeClaim,
    RecordEvent,
    ReleaseHost,
    WriteSecret,
)
from dhcpless.chain.facts import Taken, taken_key
from dhcpless.chain.objects import capi_claim_object, claim_object, secret_object
from dhcpless.chain.patches import lend_patch, nudge_patch, release_patch
from dhcpless.errors import AlreadyExists, Gone, Transient
from dhcpless.keys import RamdiskProfile
from dhcpless.kube.api import capi, capm3
from dhcpless.kube.api.client import Kube
from dhcpless.kube.events import recorder
from dhcpless.models import BareMetalHost, Secret

log = logging.getLogger(__name__)


class Reporting(Protocol):
    """What the performer needs of a function's settings (`dhcpless.settings.Settings` has both)."""

    @property
    def component(self) -> str: ...
    @property
    def record_events(self) -> bool: ...
    @property
    def ramdisk_profile(self) -> RamdiskProfile: ...


class Found(Exception):
    """A create found `taken` under our name: the facts were stale; decide again."""

    def __init__(self, key: str, taken: Taken) -> None:
        super().__init__(key)
        self.key, self.taken = key, taken


def act(actions: Sequence[Action], kube: Kube, settings: Reporting, host: BareMetalHost) -> None:
    """Log the decision once (host and what it leads to, never Secret data), then do it."""
    said = "; ".join(summary(a) for a in actions) or "nothing to do"
    tracing.bind_host(host.namespace, host.name)
    log.info("host %s/%s: %s", host.namespace, host.name, said)
    writes = [i for i, action in enumerate(actions) if not isinstance(action, RecordEvent)]
    for done, index in enumerate(writes):
        try:
            perform(actions[index], kube)
        except Exception:
            if done:  # what was written stays written: say so, though a later write failed
                _say(actions[:index], kube, settings)
            raise
    _say(actions, kube, settings)


def _say(actions: Sequence[Action], kube: Kube, settings: Reporting) -> None:
    """Post the Events among `actions`. On a failed write, the Events decided before it are
    posted when an earlier write was done: the retry finds that write in place (a re-rendered
    Secret now matches) and would not decide, nor say, them again. Events are named by their
    decision, so one the retry does decide again is not posted twice."""
    for action in actions:
        if isinstance(action, RecordEvent) and settings.record_events:
            recorder.record(kube, action.host, action.reason, action.message, settings.component)


def report(events: Sequence[RecordEvent], kube: Kube, settings: Reporting) -> None:
    """Events decided about objects other than one host (`decide.overlaps`: IPPools)."""
    for event in events:
        log.info("%s %s/%s: %s", event.host.kind, event.host.namespace, event.host.name,
                 summary(event))  # fmt: skip
        if settings.record_events:
            recorder.record(kube, event.host, event.reason, event.message, settings.component)


def perform(action: Action, kube: Kube) -> None:
    """Do one write (`RecordEvent`s are written by `act`)."""
    match action:
        case CreateIPClaim():
            _create(lambda: kube.create_claim(claim_object(action)), "IPClaim", action, kube)
        case CreateIPAddressClaim():
            create = lambda: kube.create_capi_claim(capi_claim_object(action))  # noqa: E731
            _create(create, "IPAddressClaim", action, kube)
        case WriteSecret() if action.replace is not None:
            kube.update_secret(_versioned(secret_object(action), action.replace))
        case WriteSecret():
            _create(lambda: kube.create_secret(secret_object(action)), "Secret", action, kube)
        case ReleaseHost():
            now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            kube.patch_host(action.host.namespace, action.host.name, release_patch(action, now))
        case DeleteIPClaim():
            with contextlib.suppress(Gone):
                kube.delete_claim(action.namespace, action.name)
        case LendClaim():
            capm3.patch_claim(kube, action.namespace, action.name, lend_patch(action))
        case NudgeClaim():
            capm3.patch_claim(kube, action.namespace, action.name, nudge_patch(action))
        case RecordEvent():
            pass


def _versioned(secret: Secret, version: str) -> Secret:
    """The Secret guarded by the resourceVersion decided on: a concurrent write is a Conflict
    (503), and the retry reads and decides again."""
    meta = secret.metadata.model_copy(update={"resource_version": version or None})
    return secret.model_copy(update={"metadata": meta})


Creatable = CreateIPClaim | CreateIPAddressClaim | WriteSecret


def _create(create: Callable[[], object], kind: str, action: Creatable, kube: Kube) -> None:
    """Create; when the name is taken, read what is there and raise `Found` with it."""
    try:
        create()
    except AlreadyExists:
        raise Found(taken_key(kind, action.name), _read(kind, action, kube)) from None


def _read(kind: str, action: Creatable, kube: Kube) -> Taken:
    where = f"{kind} {action.namespace}/{action.name}"
    try:
        if isinstance(action, CreateIPClaim):
            return kube.get_claim(action.namespace, action.name)
        if isinstance(action, CreateIPAddressClaim):
            return capi.get_capi_claim(kube, action.namespace, action.name)
        return kube.get_secret(action.namespace, action.name)
    except Gone:
        raise Transient(f"{where} there, then gone") from None
