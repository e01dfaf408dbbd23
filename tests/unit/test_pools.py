"""Referenced pools: CAPM3's poolRefs and getReferencedPools tests, as one table.

Adaptations: metaData pools are not collected (pre-provisioning renders networkData
only), so CAPM3's metaData entries have no counterpart; references to Machine or
Metal3Machine annotations fail with CAPM3's nil-object error because neither exists
before provisioning. CAPM3's release path (all objects nil) is `host=None`.
"""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless.models import BareMetalHost
from dhcpless.models.netdata import NetworkData
from dhcpless.render import PoolRef, RenderError, pool_uses, referenced_pools

from .hosts import make_host

CAPI = "ipam.cluster.x-k8s.io"
IN_CLUSTER = {"kind": "InClusterIPPool", "apiGroup": "ipam.metal3.io"}
CONFLICT = RenderError("multiple references with the same name but different resource types")


def _ann(annotation: str, obj: str = "baremetalhost") -> dict[str, str]:
    return {"object": obj, "annotation": annotation}


def _v4(**net: Any) -> dict[str, Any]:
    return {"id": "n", "link": "l", **net}


def _nets(ipv4: list[Any] | None = None, ipv6: list[Any] | None = None, **more: Any) -> Any:
    return {"networks": {"ipv4": ipv4 or [], "ipv6": ipv6 or [], **more}}


def _route_gw(**gateway: Any) -> dict[str, Any]:
    return {"routes": [{"gateway": gateway}]}


HOST = make_host(
    annotations={
        "ippool-annotation": "test-pool",
        "ipv4-network-pool": "ipv4-pool",
        "ipv6-network-pool": "ipv6-pool",
        "ipv4-gateway-pool": "gateway-pool-v4",
        "ipv6-gateway-pool": "gateway-pool-v6",
        "annotation-pool": "pool-from-annotation",
        "empty-annotation": "",
        "conflict": "foo",
    }
)
EXISTING_FOO = _v4(fromPoolRef={"name": "foo", **IN_CLUSTER})


def _m3(*names: str) -> tuple[PoolRef, ...]:
    return tuple(PoolRef(name) for name in names)


CASES = [
    pytest.param({}, HOST, (), id="returns empty map when no pools are referenced"),
    pytest.param(_nets([_v4(ipAddressFromIPPool="foo")]), HOST, _m3("foo"), id="addName defaults"),
    pytest.param(_nets([_v4(fromPoolRef={"name": "foo"})]), HOST, _m3("foo"), id="addRef defaults"),
    pytest.param(
        _nets([EXISTING_FOO, EXISTING_FOO]),
        HOST,
        (PoolRef("foo", "InClusterIPPool"),),
        id="accepts adding an identical ref again",
    ),
    pytest.param(
        _nets([EXISTING_FOO, _v4(fromPoolRef={"name": "foo", "kind": "IPPool"})]),
        HOST,
        CONFLICT,
        id="rejects adding a ref with the same name but different kind",
    ),
    pytest.param(
        _nets(
            [
                EXISTING_FOO,
                _v4(fromPoolRef={"name": "foo", "kind": "InClusterIPPool", "apiGroup": CAPI}),
            ]
        ),
        HOST,
        CONFLICT,
        id="rejects adding a ref with the same name but different API group",
    ),
    pytest.param(
        _nets([EXISTING_FOO, _v4(ipAddressFromIPPool="foo")]),
        HOST,
        CONFLICT,
        id="rejects adding a ref with the same name but default kind/apigroup using addName",
    ),
    pytest.param(
        _nets(
            [EXISTING_FOO],
            ipv4DHCP=[_v4(**_route_gw(fromPoolAnnotation=_ann("conflict")))],
        ),
        HOST,
        CONFLICT,
        id="rejects adding conflicting pool with different kind from annotation",
    ),
    pytest.param(
        _nets([_v4(fromPoolAnnotation=_ann("ippool-annotation"))]),
        HOST,
        _m3("test-pool"),
        id="successfully adds ref from BareMetalHost annotation",
    ),
    pytest.param(
        _nets([_v4(fromPoolAnnotation=_ann("missing-annotation"))]),
        HOST,
        RenderError("annotation missing-annotation not found or empty on baremetalhost"),
        id="returns error when annotation is not found",
    ),
    pytest.param(
        _nets([_v4(fromPoolAnnotation=_ann("empty-annotation"))]),
        HOST,
        RenderError("annotation empty-annotation not found or empty on baremetalhost"),
        id="returns error when annotation value is empty",
    ),
    pytest.param(
        _nets([_v4(fromPoolAnnotation=_ann("ippool-annotation"))] * 2),
        HOST,
        _m3("test-pool"),
        id="accepts adding the same pool from annotation multiple times",
    ),
    pytest.param(
        _nets([_v4(fromPoolAnnotation=_ann("ippool-annotation", "unknownobject"))]),
        HOST,
        RenderError("unknown object type"),
        id="returns error for invalid object type",
    ),
    pytest.param(
        _nets([_v4(fromPoolAnnotation=_ann("ippool-annotation", "metal3machine"))]),
        HOST,
        RenderError("metal3machine is nil but referenced in annotation ippool-annotation"),
        id="returns error when object is nil but referenced (metal3machine)",
    ),
    pytest.param(
        _nets([_v4(fromPoolAnnotation=_ann("ippool-annotation", "machine"))]),
        HOST,
        RenderError("machine is nil but referenced in annotation ippool-annotation"),
        id="returns error when object is nil but referenced (machine)",
    ),
    pytest.param(
        _nets(
            [_v4(fromPoolAnnotation=_ann("ipv4-network-pool"))],
            [_v4(fromPoolAnnotation=_ann("ipv6-network-pool"))],
        ),
        HOST,
        _m3("ipv4-pool", "ipv6-pool"),
        id="resolves network pools from BareMetalHost annotation for both IPv4 and IPv6",
    ),
    pytest.param(
        _nets(
            [
                _v4(
                    ipAddressFromIPPool="network-pool-v4",
                    **_route_gw(fromPoolAnnotation=_ann("ipv4-gateway-pool")),
                )
            ],
            [
                _v4(
                    ipAddressFromIPPool="network-pool-v6",
                    **_route_gw(fromPoolAnnotation=_ann("ipv6-gateway-pool")),
                )
            ],
        ),
        HOST,
        _m3("gateway-pool-v4", "gateway-pool-v6", "network-pool-v4", "network-pool-v6"),
        id="resolves gateway pools from BareMetalHost annotation for both IPv4 and IPv6",
    ),
    pytest.param(
        _nets(
            [
                _v4(fromPoolAnnotation=_ann("annotation-pool")),
                _v4(fromPoolRef={"name": "pool-from-ref"}),
            ]
        ),
        HOST,
        _m3("pool-from-annotation", "pool-from-ref"),
        id="handles mix of FromPoolAnnotation and FromPoolRef",
    ),
    pytest.param(
        _nets([_v4(fromPoolAnnotation=_ann("pool-annotation"))]),
        None,
        (),
        id="handles nil objects when using FromPoolAnnotation",
    ),
    pytest.param(
        {"services": {"dnsFromIPPool": "global-dns-pool"}},
        None,
        _m3("global-dns-pool"),
        id="handles global Services DNSFromIPPool",
    ),
    pytest.param(
        _nets(
            [
                _v4(
                    ipAddressFromIPPool="network-pool-v4",
                    **_route_gw(fromPoolRef={"name": "gateway-ref-pool-v4"}),
                )
            ],
            [
                _v4(
                    ipAddressFromIPPool="network-pool-v6",
                    **_route_gw(fromPoolRef={"name": "gateway-ref-pool-v6"}),
                )
            ],
        ),
        None,
        _m3("gateway-ref-pool-v4", "gateway-ref-pool-v6", "network-pool-v4", "network-pool-v6"),
        id="handles route gateway FromPoolRef for both IPv4 and IPv6",
    ),
    pytest.param(
        _nets(
            [
                _v4(
                    ipAddressFromIPPool="network-pool-v4",
                    **_route_gw(fromIPPool="gateway-ippool-v4"),
                )
            ],
            [
                _v4(
                    ipAddressFromIPPool="network-pool-v6",
                    **_route_gw(fromIPPool="gateway-ippool-v6"),
                )
            ],
        ),
        None,
        _m3("gateway-ippool-v4", "gateway-ippool-v6", "network-pool-v4", "network-pool-v6"),
        id="handles route gateway FromIPPool for both IPv4 and IPv6",
    ),
    pytest.param(
        _nets(
            [
                _v4(
                    ipAddressFromIPPool="network-pool-v4",
                    routes=[{"services": {"dnsFromIPPool": "dns-route-pool-v4"}}],
                )
            ],
            [
                _v4(
                    ipAddressFromIPPool="network-pool-v6",
                    routes=[{"services": {"dnsFromIPPool": "dns-route-pool-v6"}}],
                )
            ],
        ),
        None,
        _m3("dns-route-pool-v4", "dns-route-pool-v6", "network-pool-v4", "network-pool-v6"),
        id="handles route DNS pools for both IPv4 and IPv6",
    ),
    # --- ours --------------------------------------------------------------------------
    pytest.param(
        _nets([_v4(fromPoolRef={"name": "ref"}, ipAddressFromIPPool="ignored")]),
        None,
        _m3("ref"),
        id="fromPoolRef wins over ipAddressFromIPPool",
    ),
    pytest.param(
        _nets([_v4(fromPoolAnnotation=_ann("ippool-annotation"), fromPoolRef={"name": "extra"})]),
        HOST,
        _m3("extra", "test-pool"),
        id="annotation plus fromPoolRef claims both (CAPM3 overlap)",
    ),
    pytest.param(
        _nets(ipv6SLAAC=[_v4(**_route_gw(fromPoolAnnotation=_ann("ippool-annotation")))]),
        HOST,
        _m3("test-pool"),
        id="SLAAC route gateway fromPoolAnnotation is collected (CAPM3 forgets it)",
    ),
    pytest.param(
        _nets(
            ipv4DHCP=[
                _v4(
                    **_route_gw(
                        fromPoolRef={
                            "name": "capi",
                            "kind": "GlobalInClusterIPPool",
                            "apiGroup": CAPI,
                        }
                    )
                )
            ]
        ),
        None,
        (PoolRef("capi", "GlobalInClusterIPPool", CAPI),),
        id="DHCP route gateway on a CAPI pool",
    ),
]


@pytest.mark.parametrize(("network_data", "host", "expected"), CASES)
def test_referenced_pools(
    network_data: dict[str, Any],
    host: BareMetalHost | None,
    expected: tuple[PoolRef, ...] | RenderError,
) -> None:
    parsed = NetworkData.model_validate(network_data)
    if isinstance(expected, RenderError):
        with pytest.raises(RenderError) as err:
            referenced_pools(parsed, host)
        assert str(err.value) == str(expected)
    else:
        assert referenced_pools(parsed, host) == expected


def test_pool_kind_decides_the_claim_path() -> None:
    assert PoolRef("p").is_metal3
    assert not PoolRef("p", "InClusterIPPool", CAPI).is_metal3
    assert not PoolRef("p", "InClusterIPPool").is_metal3


def test_pool_uses_say_where_each_pool_is_needed() -> None:
    data = NetworkData.model_validate(
        _nets(
            [
                _v4(
                    id="prov",
                    ipAddressFromIPPool="a",
                    routes=[{}, {"gateway": {"fromIPPool": "b"}}],
                )
            ],
        )
        | {"services": {"dnsFromIPPool": "c"}}
    )
    wheres = [(use.ref.name, use.where) for use in pool_uses(data, None)]
    assert wheres == [
        ("a", 'networks.ipv4[0] "prov"'),
        ("b", 'networks.ipv4[0] "prov".routes[1].gateway'),
        ("c", "services"),
    ]
