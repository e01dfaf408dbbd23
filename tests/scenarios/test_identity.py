"""Identity by UID (DESIGN §3 "identity"): findings 1, 5, 7 and 8 of issue 12.

An object with our name is ours only with our labels and an ownerReference carrying the live
host's UID. Each scenario here released a host with an address it never owned (or stalled it
without a word) before the identity rules; now the host stays paused with a Warning, or waits
for the old object to go and then claims its own.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.scenarios import steps
from tests.support import harness, objects

FULFIL = "ipclaim-fulfilment"
SECRET = "host-0" + keys.SECRET_NAME_SUFFIX


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        for obj in (objects.POOL4, objects.data_template(objects.IPV4)):
            harness.put(sandbox, obj)
        yield sandbox


def _old_claim_terminating(world: SandboxServer) -> None:
    """A host deleted after release: its fulfilled claim is being deleted, IPAM's finalizer on."""
    old = harness.put(world, objects.host())
    harness.put(world, steps.claim("host-0-pool4", "pool4", old["metadata"]["uid"]))
    steps.fulfil(world, "host-0-pool4")
    steps.delete(world, "BareMetalHost", "host-0")
    steps.delete(world, "IPClaim", "host-0-pool4")


def test_recreated_host_waits_for_the_old_claim_then_claims_its_own(world: SandboxServer) -> None:
    """Finding 1: the old, terminating claim's address is never the new host's."""
    _old_claim_terminating(world)
    new = steps.register(world, objects.host())
    old_claim = steps.fresh(world, "IPClaim", "host-0-pool4")
    assert old_claim["metadata"].get("deletionTimestamp")
    assert steps.fire(world, FULFIL, old_claim) == 204
    assert harness.get(world, "Secret", SECRET) is None
    assert steps.paused(world, "host-0")
    assert any("being deleted" in m for _, m in steps.warnings(world, "host-0"))
    steps.drop_finalizers(world, "IPClaim", "host-0-pool4")
    assert harness.get(world, "IPClaim", "host-0-pool4") is None
    assert steps.fire(world, FULFIL, old_claim, EventType.RESOURCE_DELETE) == 204
    claim = steps.fresh(world, "IPClaim", "host-0-pool4")
    assert [o["uid"] for o in claim["metadata"]["ownerReferences"]] == [new["metadata"]["uid"]]


@pytest.mark.parametrize(
    "labels",
    [
        pytest.param({}, id="no-labels"),
        pytest.param(steps.labels_of("host-0"), id="our-labels-no-owner"),
    ],
)
def test_a_secret_someone_else_wrote_under_our_name_never_releases(
    world: SandboxServer, labels: dict[str, str]
) -> None:
    """Finding 5: a Secret under our default name that we did not write for this host."""
    harness.put(world, _secret(SECRET, labels))
    steps.register(world, objects.host())
    claim = steps.fulfil(world, "host-0-pool4")
    assert steps.fire(world, FULFIL, claim) == 204
    assert steps.fire(world, "secret-readiness", steps.fresh(world, "Secret", SECRET)) == 204
    assert steps.paused(world, "host-0")
    assert any(r == "SecretConflict" for r, _ in steps.warnings(world, "host-0"))


def test_a_writer_label_on_a_hand_written_secret_keeps_validation_on(world: SandboxServer) -> None:
    """Finding 5: only a Secret we wrote for this host skips the nmstate-under-networkData
    refusal; a user's label saying otherwise changes nothing."""
    labels = {keys.WRITER_RELEASES_LABEL: keys.WRITER_RELEASES_VALUE}
    secret = _secret("mine", labels, "interfaces:\n- name: eth0\n  type: ethernet\n")
    secret["metadata"]["annotations"] = {
        keys.NETWORK_DATA_FORMAT_ANNOTATION: keys.NetworkDataFormat.NMSTATE_IN_NETWORK_DATA.value
    }
    harness.put(world, secret)
    steps.register(world, objects.host(data_name="mine", template=None))
    assert steps.fire(world, "secret-readiness", steps.fresh(world, "Secret", "mine")) == 204
    assert steps.paused(world, "host-0")
    assert any(r == "SecretUnusable" for r, _ in steps.warnings(world, "host-0"))


def test_a_status_address_naming_another_claims_address_is_refused(world: SandboxServer) -> None:
    """Finding 7: IPClaim.status.address must name an IPAddress of this very claim."""
    other = harness.put(world, objects.host("other"))
    harness.put(world, steps.claim("other-pool4", "pool4", other["metadata"]["uid"], "other"))
    theirs = steps.fulfil(world, "other-pool4")["status"]["address"]
    steps.register(world, objects.host())
    api, custom = steps.custom(world)
    with api:
        custom.patch_namespaced_custom_object_status(
            keys.IPAM_GROUP, keys.IPAM_VERSION, objects.NS, "ipclaims", "host-0-pool4",
            {"status": {"address": theirs}},
        )  # fmt: skip
    assert steps.fire(world, FULFIL, steps.fresh(world, "IPClaim", "host-0-pool4")) == 204
    assert harness.get(world, "Secret", SECRET) is None
    assert steps.paused(world, "host-0")
    assert any("other-pool4" in m for _, m in steps.warnings(world, "host-0"))


def test_colliding_claim_names_are_a_conflict_not_a_shared_address(world: SandboxServer) -> None:
    """Finding 8: `rack1`+`ext-prov` and `rack1-ext`+`prov` are both `rack1-ext-prov`."""
    for third, pool in enumerate(("ext-prov", "prov"), start=1):
        harness.put(world, _pool(pool, third))
    for name, pool in (("rack1", "ext-prov"), ("rack1-ext", "prov")):
        harness.put(world, steps.template_with_dns(f"t-{name}", "9.9.9.9"))
        template = f"metal3datatemplates.{keys.CAPM3_GROUP}/t-{name}"
        _set_pool(world, f"t-{name}", pool)
        steps.register(world, objects.host(name, template=template))
    claim = steps.fulfil(world, "rack1-ext-prov")
    assert steps.fire(world, FULFIL, claim) == 204
    assert not steps.paused(world, "rack1"), steps.warnings(world, "rack1")
    assert steps.paused(world, "rack1-ext")
    assert any(r == "ClaimConflict" for r, _ in steps.warnings(world, "rack1-ext"))


def _secret(name: str, labels: dict[str, str], text: str | None = None) -> steps.Obj:
    data = text if text is not None else objects.VALID_NETWORK_DATA
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": name, "namespace": objects.NS, "labels": labels},
        "type": "Opaque",
        "stringData": {keys.NETWORK_DATA_KEY: data},
    }


def _pool(name: str, third: int) -> steps.Obj:
    """A pool of its own /24 (overlapping pools are refused before anything else)."""
    net = f"10.1.{third}"
    return objects.pool(name, f"{net}.10", f"{net}.20", 24, f"{net}.1", ["8.8.8.8"])


def _set_pool(world: SandboxServer, template: str, pool: str) -> None:
    api, custom = steps.custom(world)
    raw = steps.fresh(world, "Metal3DataTemplate", template)
    network = raw["spec"]["networkData"]
    network["networks"]["ipv4"][0]["ipAddressFromIPPool"] = pool
    network["networks"]["ipv4"][0]["routes"][0]["gateway"] = {"fromIPPool": pool}
    with api:
        custom.replace_namespaced_custom_object(
            keys.CAPM3_GROUP, keys.CAPM3_VERSION, objects.NS, "metal3datatemplates", template, raw
        )


def test_a_claim_deleted_after_release_is_claimed_again(world: SandboxServer) -> None:
    """Finding 8: the host still uses its address; its claim deleted is claimed again, with a
    Warning (IPAM may have given the address away meanwhile)."""
    host = steps.register(world, objects.host())
    claim = steps.fulfil(world, "host-0-pool4")
    assert steps.fire(world, FULFIL, claim) == 204
    assert not steps.paused(world, "host-0")
    steps.delete(world, "IPClaim", "host-0-pool4")
    assert harness.get(world, "IPClaim", "host-0-pool4") is None
    assert steps.fire(world, FULFIL, claim, EventType.RESOURCE_DELETE) == 204
    again = steps.fresh(world, "IPClaim", "host-0-pool4")
    assert again["metadata"]["uid"] != claim["metadata"]["uid"]
    assert [o["uid"] for o in again["metadata"]["ownerReferences"]] == [host["metadata"]["uid"]]
    assert any(r == "ClaimDeleted" for r, _ in steps.warnings(world, "host-0"))
