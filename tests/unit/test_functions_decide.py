"""Pure chain decisions (`dhcpless.chain`): typed state in, frozen actions out, no I/O.

Covers: the pause gate, registration (template problems become Warning Events; one claim per
pool; a template with no pool renders at once; an existing Secret is verified, `verify`),
fulfilment (wait, failed claim, render), release (set name + unpause, static name, missing or
invalid Secret), the exact conditional JSON patch, and that Secret data never shows in a repr.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from dhcpless import keys
from dhcpless.chain import objects as chain_objects
from dhcpless.chain import patches
from dhcpless.chain.actions import CreateIPClaim, RecordEvent, ReleaseHost, WriteSecret
from dhcpless.chain.decide import decide
from dhcpless.chain.decide.netcheck import problem
from dhcpless.chain.decide.release import decide_release
from dhcpless.chain.facts import HostFacts, TemplateLookup
from dhcpless.chain.gate import Gate, gate
from dhcpless.chain.gather.lookup import Found, Problem
from dhcpless.chain.predicates.derived import pools_for
from dhcpless.models import BareMetalHost, IPAddress, IPClaim, Secret, network_template_from_k8s
from dhcpless.models.refs import TemplateKind, TemplateRef
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef
from tests.support import objects

OURS = "host-0" + keys.SECRET_NAME_SUFFIX
REF = TemplateRef(TemplateKind.METAL3_DATA_TEMPLATE, keys.CAPM3_GROUP, "tmpl", objects.NS)


def bmh(**kwargs: Any) -> BareMetalHost:
    raw = objects.host(**kwargs)
    raw["metadata"] |= {"uid": "uid-1", "resourceVersion": "41"}
    return BareMetalHost.from_k8s(raw)


def found(network_data: dict[str, Any]) -> Found:
    return Found(REF, network_template_from_k8s(objects.data_template(network_data)))


EMPTY = Found(REF, network_template_from_k8s({**objects.data_template({}), "spec": {}}))


def secret(name: str, text: str | None, ours: bool | None = None) -> Secret:
    """`ours` (default: under our name) adds our labels and the host's UID (`chain.identity`)."""
    data = {} if text is None else {keys.NETWORK_DATA_KEY: Secret.encode(text)}
    meta: dict[str, Any] = {"name": name, "namespace": objects.NS}
    meta["resourceVersion"] = "7"
    if name == OURS if ours is None else ours:
        meta["labels"] = {keys.HOST_LABEL: "host-0", keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE}
        owner = {"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost", "name": "host-0"}
        meta["ownerReferences"] = [{**owner, "uid": "uid-1"}]
    return Secret.model_validate({"metadata": meta, "data": data})


def facts(
    template: TemplateLookup,
    existing: Secret | None = None,
    claims: dict[str, IPClaim] | None = None,
    addresses: dict[str, IPAddress] | None = None,
) -> HostFacts:
    """What `chain.gather` would have read for a waiting host with this template."""
    host = bmh()
    pools = pools_for(host, template) if isinstance(template, Found) else ()
    return HostFacts(
        host, template=template, pools=pools, secret=existing, claims=claims or {},
        addresses=addresses or {},
    )  # fmt: skip


def reasons(actions: tuple[Any, ...]) -> list[str]:
    return [a.reason.value for a in actions if isinstance(a, RecordEvent)]


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        pytest.param({"pause": None}, Gate.NOT_PAUSED, id="not-paused"),
        pytest.param({"pause": keys.CAPM3_PAUSE}, Gate.FOREIGN_PAUSE, id="capm3-pause"),
        pytest.param({"pause": ""}, Gate.FOREIGN_PAUSE, id="empty-pause"),
        pytest.param({"data_name": "mine"}, Gate.NAMED, id="ours-named"),
        pytest.param({}, Gate.WAITING, id="ours-waiting"),
    ],
)
def test_gate(kwargs: dict[str, Any], expected: Gate) -> None:
    assert gate(bmh(**kwargs)) is expected


@pytest.mark.parametrize(
    ("template", "reason"),
    [
        pytest.param(Problem(Reason.NO_TEMPLATE, "none"), "NoTemplate", id="no-template"),
        pytest.param(
            Problem(Reason.AMBIGUOUS_TEMPLATE, "a, b"), "AmbiguousTemplate", id="ambiguous"
        ),
        pytest.param(
            found({"networks": {"ipv4": [{"id": "n", "link": "eth0"}]}}),
            "RenderFailed",
            id="no-pool-name",
        ),
        pytest.param(EMPTY, "InvalidTemplate", id="no-network-data"),
    ],
)
def test_registration_problems_are_warnings(template: Any, reason: str) -> None:
    actions = decide(facts(template))
    assert reasons(actions) == [reason]
    assert all(isinstance(a, RecordEvent) and a.reason.severity == "Warning" for a in actions)


def test_registration_claims_one_per_pool() -> None:
    actions = decide(facts(found(objects.DUAL)))
    claims = [a for a in actions if isinstance(a, CreateIPClaim)]
    assert [(c.namespace, c.name, c.pool) for c in claims] == [
        (objects.NS, "host-0-pool4", "pool4"),
        (objects.NS, "host-0-pool6", "pool6"),
    ]
    assert reasons(actions) == ["TemplateChosen", "ClaimsCreated"]


def rendered(actions: tuple[Any, ...]) -> dict[str, Any]:
    (write,) = [a for a in actions if isinstance(a, WriteSecret)]
    assert (write.namespace, write.name) == (objects.NS, "host-0" + keys.SECRET_NAME_SUFFIX)
    result: dict[str, Any] = json.loads(write.network_data)
    return result


def test_registration_without_pools_renders_at_once() -> None:
    actions = decide(facts(found(objects.NO_POOLS)))
    document = rendered(actions)
    assert document["networks"] == [
        {"id": "dhcp4", "link": "eth0", "routes": [], "type": "ipv4_dhcp", "network_id": "dhcp4"}
    ]
    assert reasons(actions) == ["NetworkDataRendered", "HostReleased"]  # the writer releases


DIFFERENT = '{"links": [], "networks": [], "services": []}'


@pytest.mark.parametrize(
    ("existing", "expected", "replaces"),
    [
        pytest.param(None, ["NetworkDataRendered", "HostReleased"], None, id="absent-written"),
        pytest.param(
            secret(OURS, DIFFERENT),
            ["SecretUnverified", "SecretRerendered", "HostReleased"],
            "7",
            id="ours-different-rendered-again",
        ),
        pytest.param(
            secret(OURS, DIFFERENT, ours=False),
            ["SecretConflict"],
            None,
            id="foreign-different-kept",
        ),
    ],
)
def test_an_existing_secret_is_verified(
    existing: Secret | None, expected: list[str], replaces: str | None
) -> None:
    """Ours with other data is rendered again (the host has not used it: it is paused),
    guarded by the resourceVersion read; anyone else's is never replaced."""
    actions = decide(facts(found(objects.NO_POOLS), existing))
    assert reasons(actions) == expected
    writes = [a for a in actions if isinstance(a, WriteSecret)]
    assert [w.replace for w in writes] == ([] if expected == ["SecretConflict"] else [replaces])


def claim(pool: str, address: str | None = None, error: str | None = None) -> IPClaim:
    status: dict[str, Any] = {}
    if address:
        status["address"] = {"name": address, "namespace": objects.NS}
    if error:
        status["errorMessage"] = error
    meta = {"name": f"host-0-{pool}", "namespace": objects.NS}
    return IPClaim.model_validate(
        {"metadata": meta, "spec": {"pool": {"name": pool}}, "status": status}
    )


ADDRESS4 = IPAddress.model_validate(
    {
        "metadata": {"name": "pool4-1"},
        "spec": {
            "claim": {"name": "host-0-pool4"},
            "address": "192.168.10.10",
            "prefix": 24,
            "gateway": "192.168.10.1",
            "dnsServers": ["8.8.8.8"],
        },
    }
)


def fulfil(claims: list[IPClaim], addresses: dict[str, IPAddress]) -> tuple[Any, ...]:
    by_pool = {c.spec.pool.name: c for c in claims}
    return decide(facts(found(objects.IPV4), claims=by_pool, addresses=addresses))


def test_fulfilment_waits_for_every_address() -> None:
    """No claim yet: it is claimed (every path makes the same checks); claimed: it waits."""
    assert [type(a) for a in fulfil([], {}) if not isinstance(a, RecordEvent)] == [CreateIPClaim]
    assert fulfil([claim("pool4")], {}) == ()


def test_failed_claim_is_reported_with_its_message() -> None:
    (action,) = fulfil([claim("pool4", error="Exhausted IP Pools")], {})
    assert isinstance(action, RecordEvent) and action.reason is Reason.CLAIM_FAILED
    assert "Exhausted IP Pools" in action.message and "host-0-pool4" in action.message


def test_fulfilment_renders_from_the_addresses() -> None:
    document = rendered(fulfil([claim("pool4", "pool4-1")], {"pool4": ADDRESS4}))
    (network,) = document["networks"]
    assert (network["ip_address"], network["netmask"]) == ("192.168.10.10", "255.255.255.0")
    assert network["routes"][0]["gateway"] == "192.168.10.1"
    assert document["services"] == [{"address": "8.8.8.8", "type": "dns"}]


VALID = objects.VALID_NETWORK_DATA


@pytest.mark.parametrize(
    ("kwargs", "secret_obj", "expected"),
    [
        pytest.param({}, secret(OURS, VALID), ["HostReleased"], id="ours-valid"),
        pytest.param({}, None, [], id="ours-not-yet"),
        pytest.param({}, secret(OURS, "[1, 2"), ["SecretInvalid"], id="ours-invalid"),
        pytest.param({}, secret("other", VALID), [], id="not-its-secret"),
        pytest.param(
            {}, secret(OURS, VALID, ours=False), ["SecretConflict"], id="our-name-not-ours"
        ),
        pytest.param(
            {"data_name": "user"}, secret("user", VALID), ["HostReleased"], id="static-valid"
        ),
        pytest.param({"data_name": "user"}, None, ["SecretUnusable"], id="static-missing"),
        pytest.param(
            {"data_name": "user"}, secret("user", ""), ["SecretUnusable"], id="static-empty"
        ),
        pytest.param({"pause": keys.CAPM3_PAUSE}, secret(OURS, VALID), [], id="foreign-pause"),
        pytest.param({"pause": None}, secret(OURS, VALID), [], id="not-paused"),
    ],
)
def test_release(kwargs: dict[str, Any], secret_obj: Secret | None, expected: list[str]) -> None:
    actions = decide_release(bmh(**kwargs), secret_obj)
    assert reasons(actions) == expected
    assert any(isinstance(a, ReleaseHost) for a in actions) == (expected == ["HostReleased"])


PAUSE = "/metadata/annotations/baremetalhost.metal3.io~1paused"


def test_release_patch_sets_name_guarded_by_resource_version() -> None:
    (release, _) = decide_release(bmh(), secret(OURS, VALID))
    assert isinstance(release, ReleaseHost)
    assert patches.release_patch(release) == [
        {"op": "test", "path": PAUSE, "value": keys.PREPROVISIONING_PAUSE},
        {"op": "test", "path": "/metadata/resourceVersion", "value": "41"},
        {"op": "add", "path": "/spec/preprovisioningNetworkDataName", "value": OURS},
        {"op": "remove", "path": PAUSE},
        {"op": "add", "path": "/metadata/labels", "value": {keys.DONE_LABEL: keys.DONE_VALUE}},
    ]


def test_release_patch_keeps_a_user_name_guarded_by_its_value() -> None:
    release = ReleaseHost(HostRef(objects.NS, "host-0", "u"), "user", False, "41")
    assert patches.release_patch(release) == [
        {"op": "test", "path": PAUSE, "value": keys.PREPROVISIONING_PAUSE},
        {"op": "test", "path": "/spec/preprovisioningNetworkDataName", "value": "user"},
        {"op": "remove", "path": PAUSE},
    ]


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        pytest.param(VALID, True, id="json"),
        pytest.param("links:\n- {id: eth0, type: phy}\nnetworks: []\n", True, id="yaml"),
        pytest.param(None, False, id="no-key"),
        pytest.param("   ", False, id="blank"),
        pytest.param('{"links": "x"}', False, id="wrong-shape"),
        pytest.param('{"links": [], "networks": [{"id": "n"}]}', False, id="network-without-link"),
    ],
)
def test_network_data_check(text: str | None, ok: bool) -> None:
    found_problem = problem(secret("s", text))
    assert (found_problem is None) == ok
    if text and found_problem:
        assert text not in found_problem


def test_secret_data_never_in_repr() -> None:
    action = WriteSecret(objects.NS, "s", HostRef(objects.NS, "h", "u"), "TOPSECRET")
    assert "TOPSECRET" not in repr(action)
    assert "TOPSECRET" not in repr(chain_objects.secret_object(action))


def test_claim_object_links_the_host() -> None:
    created = chain_objects.claim_object(
        CreateIPClaim(objects.NS, "h-pool4", "pool4", HostRef(objects.NS, "h", "u"))
    )
    assert created.metadata.labels[keys.HOST_LABEL] == "h"
    assert [o.uid for o in created.metadata.owner_references] == ["u"]
    foreign = chain_objects.claim_object(
        CreateIPClaim("pools", "h-pool4", "pool4", HostRef(objects.NS, "h", "u"))
    )
    assert foreign.metadata.owner_references == ()
