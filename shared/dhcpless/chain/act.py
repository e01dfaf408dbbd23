"""Perform actions through the adapter: idempotent, so redelivered events change nothing.

Creates treat `AlreadyExists` as done. The release is one JSON patch whose `test` ops make it
conditional (see `release_patch`); if someone changed the host since we read it, the API server
rejects the patch, the adapter raises PreconditionFailed (a Transient, 503) and the retry
re-reads and decides again.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

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
from dhcpless.chain.objects import capi_claim_object, claim_object, secret_object
from dhcpless.chain.patches import (
    NAME_PATH,
    PAUSE_PATH,
    RELEASED_AT_PATH,
    lend_patch,
    nudge_patch,
    release_patch,
)
from dhcpless.errors import AlreadyExists, Gone, Transient
from dhcpless.kube import capi, capm3, recorder
from dhcpless.kube.client import Kube
from dhcpless.models import BareMetalHost
from dhcpless.web import Settings

__all__ = ["NAME_PATH", "PAUSE_PATH", "RELEASED_AT_PATH", "act", "perform"]
__all__ += ["capi_claim_object", "claim_object", "lend_patch", "nudge_patch", "release_patch"]
__all__ += ["secret_object"]

log = logging.getLogger(__name__)


def act(actions: Sequence[Action], kube: Kube, settings: Settings, host: BareMetalHost) -> None:
    """Log the decision once (host and what it leads to, never Secret data), then do it."""
    summary = "; ".join(_summary(a) for a in actions) or "nothing to do"
    log.info("host %s/%s: %s", host.namespace, host.name, summary)
    done: list[bool] = []
    for action in actions:
        if isinstance(action, RecordEvent):
            continue
        if isinstance(action, ReleaseHost) and False in done:
            continue  # its Secret was there already: the writer of that one releases
        done.append(perform(action, kube, settings))
    twin = bool(done) and all(d is False for d in done)  # only AlreadyExists answers False
    for action in actions:
        if isinstance(action, RecordEvent) and not (twin and _progress(action)):
            perform(action, kube, settings)


def _progress(action: RecordEvent) -> bool:
    """A Normal (progress) Event. When every write found its object already there (a
    redelivered event, or a concurrent twin invocation), the first one reported the
    progress: repeating it would only add Events, so only Warnings are recorded again."""
    return action.reason.severity is recorder.Severity.NORMAL


def _summary(action: Action) -> str:
    match action:
        case CreateIPClaim():
            return f"claim {action.namespace}/{action.name}"
        case WriteSecret():
            return f"write Secret {action.namespace}/{action.name}"
        case ReleaseHost():
            return f"release with Secret {action.secret_name}"
        case RecordEvent():
            return f"{action.reason.severity} {action.reason}: {action.message}"
        case DeleteIPClaim():
            return f"delete claim {action.namespace}/{action.name}"
        case CreateIPAddressClaim():
            return f"claim {action.namespace}/{action.name} from {action.kind} {action.pool}"
        case LendClaim():
            return f"lend claim {action.namespace}/{action.name} to Metal3Data {action.data_name}"
        case NudgeClaim():
            return f"nudge claim {action.namespace}/{action.name} (its pool's Cluster exists now)"


def perform(action: Action, kube: Kube, settings: Settings) -> bool:
    """Do one action; False only when a create found its object there already (done)."""
    match action:
        case CreateIPClaim():
            created = _created(lambda: kube.create_claim(claim_object(action)))
            if not created:
                _check_existing(action, kube, settings)
            return created
        case CreateIPAddressClaim():
            created = _created(lambda: kube.create_capi_claim(capi_claim_object(action)))
            if not created:
                _check_existing(action, kube, settings)
            return created
        case WriteSecret():
            return _created(lambda: kube.create_secret(secret_object(action, settings)))
        case ReleaseHost():
            now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            patch = release_patch(action, now)
            kube.patch_host(action.host.namespace, action.host.name, patch)
        case DeleteIPClaim():
            with contextlib.suppress(Gone):
                kube.delete_claim(action.namespace, action.name)
        case LendClaim():
            capm3.patch_claim(kube, action.namespace, action.name, lend_patch(action))
        case NudgeClaim():
            capm3.patch_claim(kube, action.namespace, action.name, nudge_patch(action))
        case RecordEvent():
            if settings.record_events:
                recorder.record(
                    kube, action.host, action.reason, action.message, settings.component
                )
    return True


def _check_existing(
    action: CreateIPClaim | CreateIPAddressClaim, kube: Kube, settings: Settings
) -> None:
    """A claim under our name was there: ours (a redelivery) is done; another host's, or one
    being deleted, is a Warning, never a success (DESIGN §3 "identity", `chain.identity`)."""
    from dhcpless.chain import identity  # identity builds RecordEvents: no import cycle

    kind = "IPClaim" if isinstance(action, CreateIPClaim) else "IPAddressClaim"
    try:
        existing = (
            kube.get_claim(action.namespace, action.name)
            if isinstance(action, CreateIPClaim)
            else capi.get_capi_claim(kube, action.namespace, action.name)
        )
    except Gone:
        raise Transient(f"{kind} {action.namespace}/{action.name} there, then gone") from None
    refused = identity.refusal(action.host, kind, existing.metadata)
    if refused is not None:
        perform(refused, kube, settings)


def _created(create: Callable[[], object]) -> bool:
    try:
        create()
    except AlreadyExists:
        return False
    return True
