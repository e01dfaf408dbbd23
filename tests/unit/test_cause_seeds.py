"""Each entry's cause seeds the facts `gather` starts from (`chain.cause`), and nothing else:
the claim whose delete brought the run, the Secret its event read, the claims listed, the
tick's clock and hang threshold, whether the host was just added; a later round keeps the
facts of the cause but lists and reads afresh (`cause.again`)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, NoReturn, cast

import pytest

from dhcpless import keys
from dhcpless.chain import cause
from dhcpless.chain.facts import Occasion, taken_key
from dhcpless.chain.gather import gather
from dhcpless.kube.api.client import Kube
from dhcpless.models import IPClaim, IPPool, Secret
from tests.support import objects
from tests.unit.hosts import make_host

NOW = datetime(2026, 12, 2, 13, 0, tzinfo=UTC)
CLAIM = IPClaim.from_k8s(objects.claim("bmh-0-pool4", "pool4", "uid-0", "bmh-0"))
NAME = "bmh-0-preprov-networkdata"
SECRET = Secret.from_k8s({"metadata": {"name": NAME, "namespace": "ns"}, "data": {}})
POOL = IPPool.from_k8s(objects.POOL4)
LISTED: cause.Listed = ("ns", (CLAIM,))


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        pytest.param(cause.HostChanged(added=True), cause.Seeds(fresh=True), id="host-added"),
        pytest.param(cause.HostChanged(), cause.Seeds(), id="host-changed"),
        pytest.param(cause.Metal3DataMade("ns", "m3m-0"), cause.Seeds(), id="metal3data-made"),
        pytest.param(cause.ClaimsAnswered(CLAIM), cause.Seeds(), id="answered-not-listed-yet"),
        pytest.param(
            cause.ClaimsAnswered(CLAIM, LISTED), cause.Seeds(listed=LISTED), id="answered-listed"
        ),
        pytest.param(cause.ClaimDeleted(CLAIM), cause.Seeds(gone=CLAIM), id="claim-deleted"),
        pytest.param(
            cause.PoolChanged(POOL), cause.Seeds(Occasion.POOL_CHANGED), id="pool-changed"
        ),
        pytest.param(cause.CapiClaimAnswered(), cause.Seeds(), id="capi-claim-answered"),
        pytest.param(cause.SecretWritten("ns", NAME), cause.Seeds(), id="secret-not-read-yet"),
        pytest.param(
            cause.SecretWritten("ns", NAME, SECRET), cause.Seeds(known=(SECRET,)), id="secret-read"
        ),
        pytest.param(
            cause.ResyncTick(NOW, 600.0, LISTED),
            cause.Seeds(Occasion.TICK, NOW, hang_seconds=600.0, listed=LISTED),
            id="resync-tick",
        ),
    ],
)
def test_each_cause_seeds_its_facts(given: cause.Cause, expected: cause.Seeds) -> None:
    assert cause.seeds(given) == expected


@pytest.mark.parametrize(
    "given",
    [
        pytest.param(cause.HostChanged(added=True), id="host-added"),
        pytest.param(cause.ClaimsAnswered(CLAIM, LISTED), id="answered"),
        pytest.param(cause.ResyncTick(NOW, 600.0, LISTED), id="resync-tick"),
    ],
)
def test_a_later_round_lists_afresh(given: cause.Cause) -> None:
    later = cause.again(cause.seeds(given))
    assert (later.listed, later.fresh) == (None, False)
    assert (later.occasion, later.now, later.hang_seconds) == (
        cause.seeds(given).occasion,
        cause.seeds(given).now,
        cause.seeds(given).hang_seconds,
    )


class NoReads:
    """A client that fails any call: these facts come from the cause alone."""

    def __getattr__(self, name: str) -> NoReturn:
        raise AssertionError(f"gather read {name}")


FOREIGN = {keys.PAUSED_ANNOTATION: keys.CAPM3_PAUSE}
WAITING = {keys.PAUSED_ANNOTATION: keys.PREPROVISIONING_PAUSE}


@pytest.mark.parametrize(
    ("given", "annotations", "facts"),
    [
        pytest.param(
            cause.ResyncTick(NOW, 600.0),
            FOREIGN,
            {"occasion": Occasion.TICK, "now": NOW, "hang_seconds": 600.0},
            id="tick-clock-and-hang",
        ),
        pytest.param(
            cause.PoolChanged(POOL),
            FOREIGN,
            {"occasion": Occasion.POOL_CHANGED},
            id="pool-occasion",
        ),
        pytest.param(
            cause.ClaimDeleted(CLAIM), FOREIGN, {"gone": CLAIM}, id="deleted-claim-is-gone"
        ),
        pytest.param(
            cause.SecretWritten("ns", NAME, SECRET),
            WAITING,
            {"secret": SECRET, "taken": {taken_key("Secret", SECRET.metadata.name): SECRET}},
            id="written-secret-known-no-render-read",
        ),
    ],
)
def test_gather_seeds_the_facts_from_the_cause(
    given: cause.Cause, annotations: dict[str, str], facts: dict[str, Any]
) -> None:
    host = make_host(annotations=annotations)
    gathered = gather(cast(Kube, NoReads()), host, given)
    assert {name: getattr(gathered, name) for name in facts} == facts
    assert gathered.host is host
