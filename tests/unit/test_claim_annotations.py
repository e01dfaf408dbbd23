"""What our IPClaims carry besides labels: the host's UID and the template, nothing unread.

`dhcpless.metal3.io/pools` (every pool of the host, for an ipclaim-fulfilment short path that
counted addresses) is no longer written: the one pipeline reads a host's claims by label and
its pools from the template, or after release from the host's own record
(`keys.CLAIMED_POOLS_ANNOTATION`); an annotation nobody reads only drifts.
"""

from __future__ import annotations

import pytest

from dhcpless import keys
from dhcpless.chain import objects
from dhcpless.chain.actions import CreateIPClaim
from dhcpless.refs import HostRef

HOST = HostRef("ns", "h", "uid-1")


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        pytest.param(
            CreateIPClaim("ns", "h-p1", "p1", HOST, "t", ("p1", "p2")),
            {keys.CLAIM_TEMPLATE_ANNOTATION: "t"},
            id="from-a-template",
        ),
        pytest.param(CreateIPClaim("ns", "h-p1", "p1", HOST), {}, id="nothing-recorded"),
    ],
)
def test_claim_annotations(action: CreateIPClaim, expected: dict[str, str]) -> None:
    annotations = dict(objects.claim_object(action).metadata.annotations)
    assert "dhcpless.metal3.io/pools" not in annotations
    assert {k: v for k, v in annotations.items() if k != keys.HOST_UID_ANNOTATION} == expected
