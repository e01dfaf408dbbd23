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
        """Copy an IPAddress's spec, as CAPM3's addressFromM3Claim does."""
        spec = ip.spec
        return cls(spec.address, spec.prefix, spec.gateway or "", spec.dns_servers)
