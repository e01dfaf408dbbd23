"""What the renderer needs from one pool's allocation for this host."""

from __future__ import annotations

from dataclasses import dataclass

from dhcpless.models.ipam import IPAddress


@dataclass(frozen=True, slots=True)
class Address:
    """CAPM3's `addressFromPool`: address, prefix, gateway ("" if none), DNS servers."""

    address: str
    prefix: int | None = None
    gateway: str = ""
    dns_servers: tuple[str, ...] = ()

    @classmethod
    def from_ipaddress(cls, ip: IPAddress) -> Address:
        """Copy an IPAddress's spec, as CAPM3 does (cluster-api-provider-metal3
        `baremetal/metal3data_manager.go` `newAddressFromIPAMv1`). Its prefix is a Go `int`,
        written with `omitempty`: absent means 0, and CAPM3 always passes it on, so a /0
        renders netmask `0.0.0.0`, never the "" of an unknown prefix."""
        spec = ip.spec
        prefix = 0 if spec.prefix is None else spec.prefix
        return cls(spec.address, prefix, spec.gateway or "", spec.dns_servers)
