"""Issue 24, finding 1: a forged Secret with our labels and the host's UID releases nothing.

The tenant may read hosts and manage Secrets (`tenant.READ_HOSTS`, `tenant.WRITE_SECRETS`):
it copies the network data another host was released with (that host's address) into a
Secret under the waiting host's default name, with our labels and an ownerReference carrying
the waiting host's UID. Before verification (`chain.decide.verify`) secret-readiness released
the waiting host on it: two machines on one address, no Warning, in every format, and under
`nmstate-in-networkdata` with no rule at all. Now:

* while IPAM has not answered the waiting host's claim (IPAM down, or slow): the host stays
  paused with a `SecretUnverified` Warning;
* once IPAM answers: the claims' path renders the host's own address, finds the forgery
  different, renders the Secret again (`SecretRerendered`) and releases the host with its
  own address, never the other host's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from dhcpless import keys
from dhcpless.keys import EventType, NetworkDataFormat
from dhcpless.models import Secret
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.adversary import tenant
from tests.scenarios import steps
from tests.support import harness, objects

FULFIL = "ipclaim-fulfilment"
READINESS = "secret-readiness"
VICTIM, OTHER = "host-0", "host-1"
FORMATS = [
    pytest.param(NetworkDataFormat.OPENSTACK, id="openstack"),
    pytest.param(NetworkDataFormat.NMSTATE, id="nmstate"),
    pytest.param(NetworkDataFormat.NMSTATE_IN_NETWORK_DATA, id="nmstate-in-networkdata"),
]


def _template(fmt: NetworkDataFormat) -> dict[str, Any]:
    template = objects.data_template(objects.IPV4)
    annotations = {keys.NETWORK_DATA_FORMAT_ANNOTATION: fmt.value}
    if fmt is not NetworkDataFormat.OPENSTACK:  # formats a PreprovisioningImage builder reads
        annotations[keys.PREPROV_IMAGE_BUILDER_ANNOTATION] = "true"
    template["metadata"]["annotations"] = annotations
    return template


@pytest.fixture(params=FORMATS)
def world(request: pytest.FixtureRequest) -> Iterator[SandboxServer]:
    """host-1 released with its own address; host-0 waiting, its claim not answered yet."""
    with harness.running() as sandbox:
        for obj in (objects.POOL4, _template(request.param)):
            harness.put(sandbox, obj)
        steps.register(sandbox, objects.host(OTHER))
        assert steps.fire(sandbox, FULFIL, steps.fulfil(sandbox, f"{OTHER}-pool4")) == 204
        assert not steps.paused(sandbox, OTHER)
        steps.register(sandbox, objects.host(VICTIM))
        yield sandbox


def _addresses(secret: dict[str, Any]) -> set[str]:
    """Every IPv4 address in a Secret's network data, whatever its format."""
    text = Secret.model_validate(secret).decoded(keys.NETWORK_DATA_KEY) or ""
    document = yaml.safe_load(text)
    return {a for a in _strings(document) if a.startswith("192.168.10.") and a[-2:] != ".1"}


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for value in node.values():
            yield from _strings(node=value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)
    elif isinstance(node, str):
        yield node.split("/")[0]


def _forge(world: SandboxServer) -> dict[str, Any]:
    """The attack, as the tenant with only its named rights; the forged Secret as stored."""
    with tenant.acting(world, tenant.READ_HOSTS, tenant.WRITE_SECRETS) as attacker:
        theirs = attacker.secret(OTHER + keys.SECRET_NAME_SUFFIX)
        attacker.create(tenant.forged_secret(attacker.host(VICTIM), theirs))
    return steps.fresh(world, "Secret", VICTIM + keys.SECRET_NAME_SUFFIX)


def test_a_forged_secret_never_releases_a_waiting_host(world: SandboxServer) -> None:
    other = _addresses(steps.fresh(world, "Secret", OTHER + keys.SECRET_NAME_SUFFIX))
    assert len(other) == 1
    forged = _forge(world)
    assert _addresses(forged) == other
    assert steps.fire(world, READINESS, forged, EventType.RESOURCE_ADD) == 204
    assert steps.paused(world, VICTIM)
    assert [r for r, _ in steps.warnings(world, VICTIM)] == ["SecretUnverified"]


def test_the_claims_path_renders_the_forgery_again_with_the_hosts_own_address(
    world: SandboxServer,
) -> None:
    other = _addresses(steps.fresh(world, "Secret", OTHER + keys.SECRET_NAME_SUFFIX))
    _forge(world)
    claim = steps.fulfil(world, f"{VICTIM}-pool4")  # IPAM, slow, answers after the forgery
    assert steps.fire(world, FULFIL, claim) == 204
    assert not steps.paused(world, VICTIM)
    secret = steps.fresh(world, "Secret", VICTIM + keys.SECRET_NAME_SUFFIX)
    own = _addresses(secret)
    assert len(own) == 1 and not own & other, (own, other)
    address = steps.fresh(world, "IPAddress", claim["status"]["address"]["name"])
    assert own == {address["spec"]["address"]}
    assert "SecretUnverified" in {r for r, _ in steps.warnings(world, VICTIM)}
    with world.api_client() as api:
        assert "SecretRerendered" in {e[1] for e in harness.host_events(api, VICTIM)}
    assert secret["metadata"]["labels"].get(keys.WRITER_RELEASES_LABEL) == "true"
