"""`StallWatch` (`silent_stalls`): a host paused for us past the bound counts unless a Warning
Event names it; a host not paused for us never counts."""

from __future__ import annotations

import pytest

from dhcpless import keys
from dhcpless.kube import Kube
from dhcpless.kube.events.recorder import flush, record
from dhcpless.models import BareMetalHost
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef
from dhcpless_sandbox.observe.stall_watch import StallWatch
from tests.support import harness, objects
from tests.support.waits import seconds


@pytest.mark.parametrize(
    ("pause", "warning", "expected"),
    [
        pytest.param(keys.PREPROVISIONING_PAUSE, None, 1, id="silent"),
        pytest.param(keys.PREPROVISIONING_PAUSE, Reason.CLAIM_UNANSWERED, 0, id="explained"),
        pytest.param(keys.PREPROVISIONING_PAUSE, Reason.CLAIMS_CREATED, 1, id="only-progress"),
        pytest.param(keys.CAPM3_PAUSE, None, 0, id="not-ours"),
    ],
)
def test_stall_watch_counts_silent_hosts(pause: str, warning: Reason | None, expected: int) -> None:
    with harness.running() as sandbox:
        stored = harness.put(sandbox, objects.host(pause=pause))
        with sandbox.api_client() as api:
            if warning is not None:
                host = HostRef.of(BareMetalHost.from_k8s(stored))
                record(Kube(api), host, warning, "why", "test")
                assert flush(seconds(30)), "the Warning was not posted"  # queued: kube.posting
            watch = StallWatch(api, objects.NS, bound=5.0)
            watch.look(now=0.0)
            assert watch.count() == 0  # not past the bound yet
            watch.look(now=5.0)
            assert watch.count() == expected
