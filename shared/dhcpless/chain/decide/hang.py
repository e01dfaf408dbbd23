"""Hang detection: a host we released that never gets past inspection (BMO issue #1664).

When the ramdisk cannot reach Ironic with the network data we gave it, nothing reports an
error: the host just stays `inspecting` (or BMO records a `registration error`). Earlier
still, when Ironic refuses the node's `network_data` (openstack/ironic
`ironic/api/controllers/v1/node.py` `validate_network_data`), BMO treats it as transient
(baremetal-operator `pkg/provisioner/ironic/ironic.go` `tryUpdateNode`, then `actionRegistering`
in `internal/controller/metal3.io/baremetalhost_controller.go` returns `actionError`): no status
is written and the host sits in `registering`, as it does while the BMC cannot be reached.
The release patch stamps `keys.RELEASED_AT_ANNOTATION`, so `on_host.hanging` can tell, from the
host object alone (no extra read for hosts that are fine), that it has been stuck longer than
the threshold. Only then are its addresses read, for one Warning Event naming what the ramdisk
was given: boot MAC, addresses, gateway and Secret (or, for a host still `registering`, the
likely causes and what to check). The message depends only on the host and that release, so the
Event's name (derived from it) makes it once per host per hang, however often resync runs; a
later release stamps a new time, hence a new Event for a new hang.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from dhcpless import keys
from dhcpless.chain.actions import RecordEvent
from dhcpless.chain.predicates.on_host import registering_silently
from dhcpless.keys import ProvisioningState
from dhcpless.models import BareMetalHost, IPAddress
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef

DEFAULT_HANG_SECONDS: Final = 900.0


def decide_hang(
    host: BareMetalHost, addresses: Sequence[IPAddress], threshold: float
) -> tuple[RecordEvent, ...]:
    """Pure: the one Warning Event for a hanging host (same host and release: same message)."""
    message = hang_message(host, addresses, threshold)
    return (RecordEvent(HostRef.of(host), Reason.HOST_HANGS, message),)


def hang_message(host: BareMetalHost, addresses: Sequence[IPAddress], threshold: float) -> str:
    if registering_silently(host):
        return _registering_message(host, threshold)
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


def _registering_message(host: BareMetalHost, threshold: float) -> str:
    """Names the likely causes and what to check; never the data itself."""
    secret = host.spec.preprovisioning_network_data_name or "unset"
    return (
        f"still registering {threshold:g}s after release at "
        f"{host.annotations.get(keys.RELEASED_AT_ANNOTATION)}, with no error on the host: "
        f"likely Ironic refused the node's network_data from Secret {secret} (BMO logs "
        f'"failed to update host settings in ironic" and retries silently), or the BMC is '
        f"unreachable; check the BMO log for this host, the Secret's networkData against "
        f"Ironic's network_data schema (every network needs network_id), and the BMC "
        f"address and credentials"
    )


def _cidr(address: IPAddress) -> str:
    prefix = address.spec.prefix
    return address.spec.address if prefix is None else f"{address.spec.address}/{prefix}"
