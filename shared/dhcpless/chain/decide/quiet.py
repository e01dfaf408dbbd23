"""Quiet hosts: a release that leaves nothing for us marks the host done, so BMO's status
updates of a released fleet reach no function (issue 28; README "Performance").

The BareMetalHost source selects hosts without `keys.DONE_LABEL` (eventing/
source-baremetalhosts.yaml). A host released by us has nothing left for us when:

* nothing holds our pause in a manifest: a client-side `kubectl apply` (and Argo CD) records
  the manifest in `keys.LAST_APPLIED_ANNOTATION`; a server-side apply (Flux, Argo CD with
  `ServerSideApply=true`) records the applier as an `Apply` entry of `managedFields` owning the
  pause. Such a host is paused again by the next re-apply, and only its event, which a done
  host would not produce, releases it again promptly (`repause`). A host released before is
  re-paused by something too: it stays unmarked, and its release removes a mark it carries;
* it has no borrower yet: a host CAPM3 associated with a Metal3Machine has claims to lend
  (`lifecycle`). A host CAPM3 associates after its release is lent to on the Metal3Data's
  event (eventing/components/capm3: `on_metal3data` reads every host of the namespace, done
  or not) and otherwise on the next resync tick, which lists every host.

The mark is one more op of the release patch: no write of its own.
"""

from __future__ import annotations

import json

from dhcpless import keys
from dhcpless.chain.actions import DoneMark
from dhcpless.chain.predicates import on_host
from dhcpless.models import BareMetalHost

APPLY = "Apply"
PAUSE_FIELD = f"f:{keys.PAUSED_ANNOTATION}"


def mark(host: BareMetalHost) -> DoneMark:
    """Pure, on the host being released: add the mark when nothing is left for us, remove one
    a re-paused host carries, else leave the labels alone."""
    if quiet(host):
        return DoneMark.KEEP if is_done(host) else DoneMark.ADD
    return DoneMark.REMOVE if keys.DONE_LABEL in host.labels else DoneMark.KEEP


def quiet(host: BareMetalHost) -> bool:
    """Nothing left for us once this release is done (see the module docstring)."""
    return (
        keys.RELEASED_AT_ANNOTATION not in host.annotations
        and not held_by_manifest(host)
        and on_host.borrower(host) is None
    )


def is_done(host: BareMetalHost) -> bool:
    return host.labels.get(keys.DONE_LABEL) == keys.DONE_VALUE


def held_by_manifest(host: BareMetalHost) -> bool:
    """The pause is in what a client-side or server-side apply last applied."""
    return _last_applied_pause(host) or any(
        entry.operation == APPLY and PAUSE_FIELD in _annotations(entry.fields_v1)
        for entry in host.metadata.managed_fields
    )


def _last_applied_pause(host: BareMetalHost) -> bool:
    text = host.annotations.get(keys.LAST_APPLIED_ANNOTATION)
    if not text:
        return False
    try:
        applied = json.loads(text)
    except ValueError:
        return True  # unreadable: assume the manifest may hold it (costs events, not releases)
    meta = applied.get("metadata") if isinstance(applied, dict) else None
    annotations = meta.get("annotations") if isinstance(meta, dict) else None
    return isinstance(annotations, dict) and keys.PAUSED_ANNOTATION in annotations


def _annotations(fields: dict[str, object]) -> dict[str, object]:
    meta = fields.get("f:metadata")
    found = meta.get("f:annotations") if isinstance(meta, dict) else None
    return found if isinstance(found, dict) else {}
