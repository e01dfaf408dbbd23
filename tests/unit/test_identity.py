"""`chain.identity`: an object under our name is ours only with our labels and the live host's
UID; being deleted is a reason to wait; anything else is foreign (DESIGN §3 "identity")."""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless import keys
from dhcpless.chain.identity import Standing, refusal, standing
from dhcpless.models.meta import ObjectMeta
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef

HOST = HostRef("ns", "h", "uid-now")
LABELS = {keys.HOST_LABEL: "h", keys.HOST_NAMESPACE_LABEL: "ns",
          keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE}  # fmt: skip


def meta(uid: str = "uid-now", namespace: str = "ns", **extra: Any) -> ObjectMeta:
    owner = {"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost", "name": "h", "uid": uid}
    raw = {"name": "h-p", "namespace": namespace, "labels": LABELS, "ownerReferences": [owner]}
    return ObjectMeta.model_validate(raw | extra)


@pytest.mark.parametrize(
    ("found", "expected"),
    [
        pytest.param(meta(), Standing.OURS, id="labels-and-uid"),
        pytest.param(meta("uid-old"), Standing.FOREIGN, id="predecessor"),
        pytest.param(meta(deletionTimestamp="2026-01-01T00:00:00Z"), Standing.TERMINATING,
                     id="being-deleted"),
        pytest.param(meta(labels={}), Standing.FOREIGN, id="no-labels"),
        pytest.param(meta(labels=LABELS | {keys.HOST_LABEL: "h2"}), Standing.FOREIGN,
                     id="another-hosts-labels"),
        pytest.param(meta("x", "pools", annotations={keys.HOST_UID_ANNOTATION: "uid-now"}),
                     Standing.OURS, id="across-namespaces-by-annotation"),
        pytest.param(meta("x", annotations={keys.HOST_UID_ANNOTATION: "uid-now"}),
                     Standing.FOREIGN, id="annotation-not-enough-in-the-hosts-namespace"),
    ],
)  # fmt: skip
def test_standing(found: ObjectMeta, expected: Standing) -> None:
    assert standing(found, HOST) is expected


@pytest.mark.parametrize(
    ("what", "found", "reason"),
    [
        pytest.param("IPClaim", meta(), None, id="ours"),
        pytest.param("IPClaim", meta("uid-old"), Reason.CLAIM_CONFLICT, id="claim-conflict"),
        pytest.param("Secret", meta("uid-old"), Reason.SECRET_CONFLICT, id="secret-conflict"),
        pytest.param("IPClaim", meta(deletionTimestamp="2026-01-01T00:00:00Z"),
                     Reason.WAITING_FOR_DELETION, id="wait"),
    ],
)  # fmt: skip
def test_refusal(what: str, found: ObjectMeta, reason: Reason | None) -> None:
    event = refusal(HOST, what, found)
    assert (event.reason if event else None) == reason
    assert event is None or event.reason.severity.value == "Warning"
