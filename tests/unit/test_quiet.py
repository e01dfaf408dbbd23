"""Which releases mark a host done (`chain.decide.quiet`) and the patch ops that do it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dhcpless import keys
from dhcpless.chain import patches
from dhcpless.chain.actions import DoneMark, ReleaseHost
from dhcpless.chain.decide import quiet
from dhcpless.chain.predicates import on_host
from dhcpless.models import BareMetalHost
from dhcpless.refs import HostRef
from tests.support import objects

PAUSE = {keys.PAUSED_ANNOTATION: keys.PREPROVISIONING_PAUSE}
DONE = {keys.DONE_LABEL: keys.DONE_VALUE}
APPLIED_PAUSE = json.dumps({"metadata": {"annotations": PAUSE}})
APPLIED_NONE = json.dumps({"metadata": {"annotations": {"team": "a"}}})
PAUSE_FIELD: dict[str, Any] = {"f:metadata": {"f:annotations": {f"f:{keys.PAUSED_ANNOTATION}": {}}}}
CONSUMER = {"kind": "Metal3Machine", "name": "m-0"}


def host(
    labels: dict[str, str] | None = None,
    annotations: dict[str, str] | None = None,
    managed: list[dict[str, Any]] | None = None,
    consumer: dict[str, str] | None = None,
    pause: str | None = keys.PREPROVISIONING_PAUSE,
) -> BareMetalHost:
    raw = objects.host(pause=pause)
    raw["metadata"]["annotations"] = {
        **raw["metadata"].get("annotations", {}),
        **(annotations or {}),
    }
    if labels is not None:
        raw["metadata"]["labels"] = labels
    if managed is not None:
        raw["metadata"]["managedFields"] = managed
    if consumer is not None:
        raw["spec"]["consumerRef"] = consumer
    return BareMetalHost.from_k8s(raw)


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        pytest.param(host(), DoneMark.ADD, id="first-release"),
        pytest.param(host(labels=DONE), DoneMark.KEEP, id="already-done"),
        pytest.param(
            host(annotations={keys.LAST_APPLIED_ANNOTATION: APPLIED_PAUSE}), DoneMark.KEEP,
            id="kubectl-apply-holds-pause",
        ),
        pytest.param(
            host(annotations={keys.LAST_APPLIED_ANNOTATION: APPLIED_NONE}), DoneMark.ADD,
            id="kubectl-apply-without-pause",
        ),
        pytest.param(
            host(annotations={keys.LAST_APPLIED_ANNOTATION: "{not json"}), DoneMark.KEEP,
            id="unreadable-last-applied",
        ),
        pytest.param(
            host(managed=[{"manager": "flux", "operation": "Apply", "fieldsV1": PAUSE_FIELD}]),
            DoneMark.KEEP, id="server-side-apply-holds-pause",
        ),
        pytest.param(
            host(managed=[{"manager": "kubectl", "operation": "Update", "fieldsV1": PAUSE_FIELD}]),
            DoneMark.ADD, id="update-owning-pause-is-no-manifest",
        ),
        pytest.param(
            host(labels=DONE, annotations={keys.RELEASED_AT_ANNOTATION: "2026-01-01T00:00:00Z"}),
            DoneMark.REMOVE, id="repaused-done-host-unmarked",
        ),
        pytest.param(
            host(annotations={keys.RELEASED_AT_ANNOTATION: "2026-01-01T00:00:00Z"}),
            DoneMark.KEEP, id="repaused-host-stays-unmarked",
        ),
        pytest.param(host(consumer=CONSUMER), DoneMark.KEEP, id="borrowed-has-claims-to-lend"),
    ],
)  # fmt: skip
def test_mark(subject: BareMetalHost, expected: DoneMark) -> None:
    assert quiet.mark(subject) is expected


def release(done: DoneMark, has_labels: bool, set_name: bool = True) -> ReleaseHost:
    return ReleaseHost(HostRef("ns", "h", "u"), "h-net", set_name, "7", "", done, has_labels)


LABEL_PATH = "/metadata/labels/dhcpless.metal3.io~1done"
VERSION = {"op": "test", "path": "/metadata/resourceVersion", "value": "7"}


@pytest.mark.parametrize(
    ("action", "present", "absent"),
    [
        pytest.param(
            release(DoneMark.ADD, True), [{"op": "add", "path": LABEL_PATH, "value": "true"}], [],
            id="add-by-key",
        ),
        pytest.param(
            release(DoneMark.ADD, False, set_name=False),
            [VERSION, {"op": "add", "path": "/metadata/labels", "value": DONE}], [],
            id="add-map-guarded-by-version",
        ),
        pytest.param(
            release(DoneMark.REMOVE, True), [{"op": "remove", "path": LABEL_PATH}], [],
            id="remove",
        ),
        pytest.param(
            release(DoneMark.KEEP, True, set_name=False), [], [VERSION], id="keep-touches-no-label"
        ),
    ],
)  # fmt: skip
def test_release_patch_done_ops(
    action: ReleaseHost, present: list[dict[str, Any]], absent: list[dict[str, Any]]
) -> None:
    ops = patches.release_patch(action)
    assert all(op in ops for op in present)
    assert not any(op in ops for op in absent)
    labels = [op for op in ops if op["path"].startswith("/metadata/labels")]
    assert len(labels) == (action.done is not DoneMark.KEEP)


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        pytest.param(host(labels=DONE, pause=None), True, id="released-done"),
        pytest.param(host(labels=DONE), False, id="repaused"),
        pytest.param(host(labels=DONE, pause=None, consumer=CONSUMER), False, id="associated"),
        pytest.param(host(pause=None), False, id="unmarked"),
    ],
)
def test_a_done_host_is_read_again_once_associated_or_repaused(
    subject: BareMetalHost, expected: bool
) -> None:
    assert on_host.done(subject) is expected
