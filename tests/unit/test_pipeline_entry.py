"""Where a run's host comes from (`chain.pipeline`, `chain.gather.entry`): a host named by
(namespace, name) is read once, before anything else; a BareMetalHost event's cheap exit is
taken on the event's own copy with no read (Resource mode), or on the host as read (Reference
mode); a host that is gone ends the run quietly, except on its own event, where `Gone` is the
answer (204) as when host-registration read it itself."""

from __future__ import annotations

from typing import cast

import pytest

from dhcpless import keys
from dhcpless.chain import cause, pipeline
from dhcpless.chain.act import Reporting
from dhcpless.errors import Gone
from dhcpless.kube.api.client import Kube
from dhcpless.models import BareMetalHost, IPPool
from tests.support import objects
from tests.unit.hosts import make_host

KEY = ("ns", "bmh-0")
FOREIGN = make_host(annotations={keys.PAUSED_ANNOTATION: keys.CAPM3_PAUSE})
"""Paused by someone else: not worth a run (`pipeline.worth`)."""
WAITING = make_host(annotations={keys.PAUSED_ANNOTATION: keys.PREPROVISIONING_PAUSE})
POOL = IPPool.from_k8s(objects.POOL4)


class Hosts:
    """Answers `get_host` with one host (None: Gone) and counts the reads."""

    def __init__(self, host: BareMetalHost | None) -> None:
        self.host, self.reads = host, 0

    def get_host(self, namespace: str, name: str) -> BareMetalHost:
        self.reads += 1
        if self.host is None:
            raise Gone(f"BareMetalHost {namespace}/{name} not found")
        return self.host


def run(hosts: Hosts, why: cause.Cause) -> object:
    settings = cast(Reporting, object())  # never reached: every case ends before a decision
    return pipeline.reconcile(cast(Kube, hosts), KEY, why, settings)


@pytest.mark.parametrize(
    ("stored", "why", "reads"),
    [
        pytest.param(FOREIGN, cause.HostChanged(seen=FOREIGN), 0, id="resource-mode-no-read"),
        pytest.param(FOREIGN, cause.HostChanged(), 1, id="reference-mode-one-read"),
        pytest.param(None, cause.CapiClaimAnswered(), 1, id="gone-host-of-a-claim"),
        pytest.param(None, cause.PoolChanged(POOL), 1, id="gone-host-of-a-pool"),
    ],
)
def test_a_run_that_ends_before_gathering(
    stored: BareMetalHost | None, why: cause.Cause, reads: int
) -> None:
    hosts = Hosts(stored)
    assert run(hosts, why) is None
    assert hosts.reads == reads


@pytest.mark.parametrize(
    "why",
    [
        pytest.param(cause.HostChanged(), id="reference-mode"),
        pytest.param(cause.HostChanged(added=True, seen=WAITING), id="resource"),
    ],
)
def test_a_host_gone_under_its_own_event_is_gone(why: cause.Cause) -> None:
    with pytest.raises(Gone):
        run(Hosts(None), why)
