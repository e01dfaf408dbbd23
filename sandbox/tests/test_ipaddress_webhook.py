"""IPAddress `spec.address`, `spec.pool` and `spec.claim` cannot be modified (issue 24, item 9).

ip-address-manager's validating webhook (`internal/webhooks/v1alpha1/ipaddress_webhook.go`,
`IPAddress.ValidateUpdate`) refuses such an update as 422 Invalid, each changed field a cause
"cannot be modified"; the sandbox answers the same through the official client (merge patch
and replace), and lets every other change (labels, finalizers, an unchanged spec) through.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from kubernetes.client import ApiException

from dhcpless import keys
from sandbox.tests.helpers import Custom, status_of

NS = "default"
IPAM = (keys.IPAM_GROUP, keys.IPAM_VERSION, NS, "ipaddresses")
JSON = dict[str, Any]


def _address() -> JSON:
    return {
        "apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}",
        "kind": "IPAddress",
        "metadata": {"name": "pool-10-0-0-10"},
        "spec": {
            "address": "10.0.0.10",
            "prefix": 24,
            "pool": {"name": "pool", "namespace": NS, "kind": "IPPool"},
            "claim": {"name": "host-0-pool", "namespace": NS, "kind": "IPClaim"},
        },
    }


@pytest.fixture
def co(api_client: Any) -> Custom:
    custom = Custom(api_client)
    custom.create_namespaced_custom_object(*IPAM, _address())
    return custom


def _patch(co: Custom, body: JSON) -> JSON:
    return co.patch_namespaced_custom_object(*IPAM, "pool-10-0-0-10", body)


def _replace(co: Custom, spec: JSON) -> JSON:
    stored = co.get_namespaced_custom_object(*IPAM, "pool-10-0-0-10")
    stored["spec"] = {**stored["spec"], **spec}
    return co.replace_namespaced_custom_object(*IPAM, "pool-10-0-0-10", stored)


Write = Callable[[Custom], JSON]
REFUSED = [
    pytest.param(lambda co: _patch(co, {"spec": {"address": "10.0.0.11"}}), ["spec.address"],
                 id="address"),
    pytest.param(lambda co: _patch(co, {"spec": {"pool": {"name": "other"}}}), ["spec.pool"],
                 id="pool-name"),
    pytest.param(lambda co: _patch(co, {"spec": {"pool": {"kind": "GlobalInClusterIPPool"}}}),
                 ["spec.pool"], id="pool-kind"),
    pytest.param(lambda co: _patch(co, {"spec": {"claim": {"name": "host-1-pool"}}}),
                 ["spec.claim"], id="claim-name"),
    pytest.param(lambda co: _patch(co, {"spec": {"claim": {"namespace": "other"}}}),
                 ["spec.claim"], id="claim-namespace"),
    pytest.param(lambda co: _replace(co, {"address": "10.0.0.12", "claim": {"name": "x"}}),
                 ["spec.address", "spec.claim"], id="replace-address-and-claim"),
]  # fmt: skip


@pytest.mark.parametrize(("write", "fields"), REFUSED)
def test_what_an_address_is_cannot_be_modified(co: Custom, write: Write, fields: list[str]) -> None:
    with pytest.raises(ApiException) as refused:
        write(co)
    status = status_of(refused.value)
    assert (refused.value.status, status["reason"]) == (422, "Invalid")
    assert status["message"].startswith(
        'admission webhook "validation.ipaddress.ipam.metal3.io" denied the request: '
        'IPAddress.ipam.metal3.io "pool-10-0-0-10" is invalid: '
    )
    causes = status["details"]["causes"]
    assert [c["field"] for c in causes] == fields
    assert all(c["message"].endswith("cannot be modified") for c in causes)
    stored = co.get_namespaced_custom_object(*IPAM, "pool-10-0-0-10")
    assert stored["spec"] == _address()["spec"]


ALLOWED = [
    pytest.param({"metadata": {"labels": {"a": "b"}}}, id="labels"),
    pytest.param({"metadata": {"finalizers": [keys.IPAM_ADDRESS_FINALIZER]}}, id="finalizer"),
    pytest.param({"spec": {"address": "10.0.0.10", "gateway": "10.0.0.1"}}, id="same-address"),
]


@pytest.mark.parametrize("body", ALLOWED)
def test_other_changes_pass(co: Custom, body: JSON) -> None:
    written = _patch(co, body)
    assert written["spec"]["address"] == "10.0.0.10"
    assert written["spec"]["claim"]["name"] == "host-0-pool"
