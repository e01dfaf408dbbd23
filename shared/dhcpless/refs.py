"""Typed pointers to the objects we write about (Events, owner references, patches): pure
values, so decisions can name a host without importing the adapter."""

from __future__ import annotations

from dataclasses import dataclass

from dhcpless import keys
from dhcpless.models import BareMetalHost


@dataclass(frozen=True, slots=True)
class HostRef:
    """Enough of a BareMetalHost to write about it: Events, owner references, patches."""

    namespace: str
    name: str
    uid: str
    api_version: str = f"{keys.BMO_GROUP}/{keys.BMO_VERSION}"
    kind: str = "BareMetalHost"

    @classmethod
    def of(cls, host: BareMetalHost) -> HostRef:
        return cls(host.namespace, host.name, host.metadata.uid or "", host.api_version, host.kind)

    def __str__(self) -> str:
        return f"{self.namespace}/{self.name}"
