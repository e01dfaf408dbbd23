"""The CAPM3 stand-in's networkData rendering: the project's renderer, CAPM3-identical.

Exists so the deployed OS gets what CAPM3 would give it (`baremetal/metal3data_manager.go`
`renderNetworkData` over the addresses `getAddressesFromPool` read from the IPAddresses,
`newAddressFromIPAMv1`), without a second renderer: `dhcpless.render` is tested against CAPM3's
own tables. A template without networkData renders nothing, as CAPM3 then leaves
`spec.networkData` unset; here an empty document is written instead and BMO's deployed-OS boot
finds no address, which the stand-in's users never rely on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dhcpless.models import BareMetalHost, IPAddress, network_template_from_k8s
from dhcpless.render import Address, render_network_data


def network_data(
    template: Mapping[str, Any], host: Mapping[str, Any], addresses: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any]:
    """`template`'s networkData for `host` with `addresses` (pool name -> IPAddress object)."""
    parsed = network_template_from_k8s(template)
    by_pool = {
        pool: Address.from_ipaddress(IPAddress.from_k8s(address))
        for pool, address in addresses.items()
    }
    rendered = render_network_data(parsed.network_data, BareMetalHost.from_k8s(host), by_pool)
    return dict(rendered or {})
