"""Annotations: the pause contract with users, and what we write on hosts, claims and templates."""

from __future__ import annotations

from typing import Final

__all__ = [
    "CAPM3_PAUSE",
    "CLAIMED_ADDRESSES_ANNOTATION",
    "CLAIMED_POOLS_ANNOTATION",
    "CLAIM_TEMPLATE_ANNOTATION",
    "HOST_UID_ANNOTATION",
    "LAST_APPLIED_ANNOTATION",
    "NETWORK_DATA_FORMAT_ANNOTATION",
    "NUDGED_ANNOTATION",
    "PAUSED_ANNOTATION",
    "PREPROVISIONING_PAUSE",
    "PREPROV_IMAGE_BUILDER_ANNOTATION",
    "RAMDISK_PROFILE_ANNOTATION",
    "RELEASED_AT_ANNOTATION",
    "REQUESTED_IP_ANNOTATION",
    "TEMPLATE_REFERENCE_ANNOTATION",
    "TRACEPARENT_ANNOTATION",
]

PAUSED_ANNOTATION: Final = "baremetalhost.metal3.io/paused"
"""BMO pauses a host while this annotation exists, whatever its value."""

PREPROVISIONING_PAUSE: Final = "metal3.io/preprovisioning"
"""Our pause value: the only value we ever remove."""

CAPM3_PAUSE: Final = "metal3.io/capm3"
"""CAPM3's pause value; never ours to remove."""

TEMPLATE_REFERENCE_ANNOTATION: Final = (
    "baremetalhost.metal3.io/preprovisioningnetworkdata-reference"
)
"""`<plural>.<group>/<name>` naming the template for a host (revised design)."""

NUDGED_ANNOTATION: Final = "dhcpless.metal3.io/nudged-at"
"""On a claim of ours IPAM left unanswered while its pool waited for its Cluster: written once
the Cluster exists, so IPAM (which does not watch Clusters) reconciles the pool again."""

HOST_UID_ANNOTATION: Final = "dhcpless.metal3.io/host-uid"
"""On everything we create: the UID of the host it serves (`chain.identity`). Needed where an
ownerReference cannot carry it (an object in another namespace than the host)."""

RELEASED_AT_ANNOTATION: Final = "dhcpless.metal3.io/released-at"
"""On a host we released: when (RFC 3339, UTC), written by the release patch itself."""

CLAIMED_POOLS_ANNOTATION: Final = "dhcpless.metal3.io/claimed-pools"
"""On the Secret we write, then copied onto the host by the release patch: the Metal3 pools
whose claims the network data's addresses came from, `<namespace>/<pool>` comma-separated. A
released host keeps exactly these claims for its whole life (resync claims a missing one again,
`chain.decide.reclaim`), whatever the template says later."""

CLAIMED_ADDRESSES_ANNOTATION: Final = "dhcpless.metal3.io/claimed-addresses"
"""On the Secret we write (never on the host): `<pool>=<address>` comma-separated, the address
each Metal3 pool's claim gave the data. The record a re-claim trusts (`chain.decide.reclaim`):
read from our own Secret (our labels and the host's UID, named by the host), never from
annotations on the host, which anyone who may annotate hosts can write."""

REQUESTED_IP_ANNOTATION: Final = "ipAddress"
"""On an IPClaim: the address asked for. IPAM gives exactly that address or fails the claim
with "Requested IP not available" (ip-address-manager `ipam/ippool_manager.go`,
`IPAddressAnnotation`, read in `allocateAddress`; validated by
`internal/webhooks/v1alpha1/ipclaim_webhook.go`). A re-claim asks for the host's own address
back with it (`chain.decide.reclaim`)."""

CLAIM_TEMPLATE_ANNOTATION: Final = "dhcpless.metal3.io/template"
"""On the IPClaims we create: the template they were created from (`TemplateRef` as text)."""

NETWORK_DATA_FORMAT_ANNOTATION: Final = "dhcpless.metal3.io/network-data-format"
"""On a template (and recorded on the Secret we write): a format of `render.formats.registry`."""

PREPROV_IMAGE_BUILDER_ANNOTATION: Final = "dhcpless.metal3.io/preprov-image-builder"
"""On a template, "true": its hosts' BMO runs with `--build-preprov-image`, so BMO does not set
the Ironic node's `network_data` and a PreprovisioningImage builder reads the Secret instead.
Decides which formats can work (each format's `unworkable`, `render.formats`)."""

LAST_APPLIED_ANNOTATION: Final = "kubectl.kubernetes.io/last-applied-configuration"
"""What client-side `kubectl apply` (and Argo CD) last applied: tells whether a manifest
carries the pause."""

RAMDISK_PROFILE_ANNOTATION: Final = "dhcpless.metal3.io/ramdisk-profile"
"""On a template (and recorded on the Secret we write): the `RamdiskProfile` its hosts boot,
overriding the fleet's `DHCPLESS_RAMDISK_PROFILE`; the ramdisk rules judge the data for it."""
TRACEPARENT_ANNOTATION: Final = "dhcpless.metal3.io/traceparent"
"""On what we create and the Events we record: the W3C `traceparent` of the delivery that
wrote it (`dhcpless.tracing`), so an object leads to the trace and the log lines of the
decision that made it."""
