"""Hang detection: a host we released that never gets past inspection (BMO issue #1664).

When the ramdisk cannot reach Ironic with the network data we gave it, nothing reports an
error: the host just stays `inspecting` (or BMO records a `registration error`). The release
patch stamps `keys.RELEASED_AT_ANNOTATION`, so `hanging` can tell, from the host object alone
(no extra read for hosts that are fine), that it has been stuck longer than the threshold.
Only then are its addresses read, for one Warning Event naming what the ramdisk was given:
boot MAC, addresses, gateway and Secret. The message depends only on the host and that release,
so the Event's name (derived from it) makes it once per host per hang, however often resync
runs; a later release stamps a new time, hence a new Event for a new hang.
"""

from __future__ import annotations

import contextlib
from datetime import datetime
from typing import Final

from dhcpless import keys
from dhcpless.chain.actions import RecordEvent
from dhcpless.chain.gate import Gate, gate
from dhcpless.chain.lookup import host_claims
from dhcpless.errors import Gone
from dhcpless.keys import ProvisioningState
from dhcpless.kube.client import Kube
from dhcpless.kube.recorder import Reason
from dhcpless.kube.refs import HostRef
from dhcpless.models import BareMetalHost, IPAddress

DEFAULT_HANG_SECONDS: Final = 900.0


def released_at(host: BareMetalHost) -> datetime | None:
    """When we released the host (our annotation), or None if we did not / it is unreadable."""
    text = host.annotations.get(keys.RELEASED_AT_ANNOTATION, "")
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def stalled(host: BareMetalHost) -> bool:
    """Inspecting, or failed to register: where a ramdisk that cannot reach Ironic leaves it."""
    state = host.status.provisioning.state
    return state == ProvisioningState.INSPECTING or host.status.error_type == (
        keys.REGISTRATION_ERROR
    )


def hanging(host: BareMetalHost, now: datetime, threshold: float) -> bool:
    """Pure: released by us, unpaused, stalled, and for longer than `threshold` seconds."""
    since = released_at(host)
    if since is None or gate(host) is not Gate.NOT_PAUSED or not stalled(host):
        return False
    return (now - since).total_seconds() >= threshold


def decide_hang(
    host: BareMetalHost, addresses: list[IPAddress], threshold: float
) -> tuple[RecordEvent, ...]:
    """Pure: the one Warning Event for a hanging host (same host and release: same message)."""
    message = hang_message(host, addresses, threshold)
    return (RecordEvent(HostRef.of(host), Reason.HOST_HANGS, message),)


def hang_message(host: BareMetalHost, addresses: list[IPAddress], threshold: float) -> str:
    state = host.status.provisioning.state
    inspecting = state == ProvisioningState.INSPECTING
    where = "inspecting" if inspecting else f"with {keys.REGISTRATION_ERROR} ({state or '-'})"
    ips = ", ".join(_cidr(a) for a in addresses) or "none claimed by us"
    gateways = ", ".join(sorted({a.spec.gateway for a in addresses if a.spec.gateway})) or "none"
    return (
        f"still {where} {threshold:g}s after release at "
        f"{host.annotations.get(keys.RELEASED_AT_ANNOTATION)}: the ramdisk may not reach Ironic; "
        f"boot MAC {host.spec.boot_mac_address or 'unset'}, addresses {ips}, gateway {gateways}, "
        f"Secret {host.spec.preprovisioning_network_data_name or 'unset'}"
    )


def _cidr(address: IPAddress) -> str:
    prefix = address.spec.prefix
    return address.spec.address if prefix is None else f"{address.spec.address}/{prefix}"


def claimed_addresses(kube: Kube, host: BareMetalHost) -> list[IPAddress]:
    """The IPAddresses of our claims for the host (IPAM objects, not the Secret), by pool."""
    found = []
    for _, claim in sorted(host_claims(kube, host, host.namespace).items()):
        ref = claim.status.address
        if ref is not None and ref.name:
            with contextlib.suppress(Gone):
                found.append(kube.get_address(ref.namespace or host.namespace, ref.name))
    return found
