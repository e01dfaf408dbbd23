"""The JSON patches `chain.act` sends: the conditional release, lending a claim to CAPM3's
Metal3Data, and nudging IPAM. Pure: action in, patch out (tests compare them)."""

from __future__ import annotations

from typing import Any

from dhcpless import keys
from dhcpless.chain.actions import DoneMark, LendClaim, NudgeClaim, ReleaseHost


def lend_patch(action: LendClaim) -> list[dict[str, Any]]:
    """The owners as read plus the Metal3Data (not as controller: CAPM3 checks only the UID,
    `addressFromM3Claim`), guarded by the resourceVersion the decision read."""
    data = {
        "apiVersion": f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}",
        "kind": "Metal3Data",
        "name": action.data_name,
        "uid": action.data_uid,
    }
    owners = [o.model_dump(by_alias=True, exclude_none=True) for o in action.owners]
    return [
        {"op": "test", "path": "/metadata/resourceVersion", "value": action.resource_version},
        {"op": "add", "path": "/metadata/ownerReferences", "value": [*owners, data]},
    ]


def nudge_patch(action: NudgeClaim) -> list[dict[str, Any]]:
    """`keys.NUDGED_ANNOTATION` = when (JSON patch cannot add into an absent map)."""
    if not action.has_annotations:
        value = {keys.NUDGED_ANNOTATION: action.at}
        return [{"op": "add", "path": "/metadata/annotations", "value": value}]
    path = f"/metadata/annotations/{_escape(keys.NUDGED_ANNOTATION)}"
    return [{"op": "add", "path": path, "value": action.at}]


def _escape(key: str) -> str:
    """JSON pointer escaping (RFC 6901) for annotation keys containing `/`."""
    return key.replace("~", "~0").replace("/", "~1")


PAUSE_PATH = f"/metadata/annotations/{_escape(keys.PAUSED_ANNOTATION)}"
NAME_PATH = "/spec/preprovisioningNetworkDataName"
RELEASED_AT_PATH = f"/metadata/annotations/{_escape(keys.RELEASED_AT_ANNOTATION)}"
CLAIMED_PATH = f"/metadata/annotations/{_escape(keys.CLAIMED_POOLS_ANNOTATION)}"
DONE_PATH = f"/metadata/labels/{_escape(keys.DONE_LABEL)}"
VERSION_PATH = "/metadata/resourceVersion"


def release_patch(action: ReleaseHost, released_at: str | None = None) -> list[dict[str, Any]]:
    """One request: it neither removes a pause someone else changed nor overwrites their name.

    Setting the name tests the resourceVersion we decided on (JSON patch cannot test absence);
    keeping a user's name tests that it is still that name. Both test our pause value.
    `released_at` (RFC 3339) is recorded in the same request, for hang detection (resync),
    and so are the pools the host's claims are of (`action.claimed`, `chain.decide.reclaim`):
    one more annotation op, so no label or annotation someone else wrote is touched.
    The only label it touches is `keys.DONE_LABEL` (`action.done`, `chain.decide.quiet`), by
    its own key; a host without a labels map gets one holding only that key, guarded by the
    resourceVersion read, so no label someone added since is dropped (issue 14, finding 6).
    """
    stamp = [{"op": "add", "path": RELEASED_AT_PATH, "value": released_at}]
    claimed = [{"op": "add", "path": CLAIMED_PATH, "value": action.claimed}]
    version = [{"op": "test", "path": VERSION_PATH, "value": action.resource_version}]
    guard = version if action.set_name else [
        {"op": "test", "path": NAME_PATH, "value": action.secret_name},
        *(version if action.done is DoneMark.ADD and not action.has_labels else []),
    ]  # fmt: skip
    write_name = [{"op": "add", "path": NAME_PATH, "value": action.secret_name}]
    return [
        {"op": "test", "path": PAUSE_PATH, "value": keys.PREPROVISIONING_PAUSE},
        *guard,
        *(write_name if action.set_name else []),
        {"op": "remove", "path": PAUSE_PATH},
        *(stamp if released_at is not None else []),
        *(claimed if action.claimed else []),
        *_done_ops(action),
    ]


def _done_ops(action: ReleaseHost) -> list[dict[str, Any]]:
    """Add `keys.DONE_LABEL` (into a new labels map when there is none), or remove it."""
    if action.done is DoneMark.REMOVE:
        return [{"op": "remove", "path": DONE_PATH}]
    if action.done is DoneMark.KEEP:
        return []
    if action.has_labels:
        return [{"op": "add", "path": DONE_PATH, "value": keys.DONE_VALUE}]
    return [{"op": "add", "path": "/metadata/labels", "value": {keys.DONE_LABEL: keys.DONE_VALUE}}]
