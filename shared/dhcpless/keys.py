"""Every annotation, label, finalizer and name the project reads or writes, in one place.

Keys that belong to other projects (BMO, CAPM3, IPAM) are named here too, so a typo
is a NameError rather than a silent no-op.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

# --- the contract with users (DESIGN §3) -------------------------------------------------
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

NETWORK_DATA_KEY: Final = "networkData"
"""Secret data key BMO reads for preprovisioning network data."""

NMSTATE_KEY: Final = "nmstate"

# --- labels and finalizers we write -------------------------------------------------------
HOST_LABEL: Final = "dhcpless.metal3.io/host"
"""On IPClaims and Secrets we create: the name of the BareMetalHost they serve."""

MANAGED_BY_LABEL: Final = "app.kubernetes.io/managed-by"
MANAGED_BY_VALUE: Final = "metal3-dhcpless"

BMO_SECRET_LABEL: Final = "environment.metal3.io"
BMO_SECRET_LABEL_VALUE: Final = "baremetal"
"""BMO's cache only sees Secrets carrying this label (reference §e.3)."""

BMO_SECRET_FINALIZER: Final = "baremetalhost.metal3.io/secret"
IPAM_CLAIM_FINALIZER: Final = "ipclaim.ipam.metal3.io"
IPAM_ADDRESS_FINALIZER: Final = "ipaddress.ipam.metal3.io"
IPAM_POOL_FINALIZER: Final = "ippool.ipam.metal3.io"

SECRET_NAME_SUFFIX: Final = "-preprov-networkdata"
"""The Secret we write for host `h` is `h` + this suffix, in the host's namespace."""

# --- API groups and kinds ---------------------------------------------------------------
BMO_GROUP: Final = "metal3.io"
BMO_VERSION: Final = "v1alpha1"
IPAM_GROUP: Final = "ipam.metal3.io"
IPAM_VERSION: Final = "v1alpha1"
CAPM3_GROUP: Final = "infrastructure.cluster.x-k8s.io"
CAPM3_VERSION: Final = "v1beta2"
CAPI_IPAM_GROUP: Final = "ipam.cluster.x-k8s.io"

EVENT_REPORTING_COMPONENT: Final = "metal3-dhcpless"


class FunctionName(StrEnum):
    """The Knative Service names (DESIGN §3)."""

    HOST_REGISTRATION = "host-registration"
    IPCLAIM_FULFILMENT = "ipclaim-fulfilment"
    SECRET_READINESS = "secret-readiness"
    RESYNC = "resync"


class EventType(StrEnum):
    """ApiServerSource CloudEvent types (reference knative.md §b)."""

    RESOURCE_ADD = "dev.knative.apiserver.resource.add"
    RESOURCE_UPDATE = "dev.knative.apiserver.resource.update"
    RESOURCE_DELETE = "dev.knative.apiserver.resource.delete"
    REF_ADD = "dev.knative.apiserver.ref.add"
    REF_UPDATE = "dev.knative.apiserver.ref.update"
    REF_DELETE = "dev.knative.apiserver.ref.delete"


class ProvisioningState(StrEnum):
    """BMO's `status.provisioning.state` values (baremetalhost_types.go)."""

    NONE = ""
    UNMANAGED = "unmanaged"
    REGISTERING = "registering"
    MATCH_PROFILE = "match profile"
    PREPARING = "preparing"
    READY = "ready"
    AVAILABLE = "available"
    PROVISIONING = "provisioning"
    PROVISIONED = "provisioned"
    EXTERNALLY_PROVISIONED = "externally provisioned"
    DEPROVISIONING = "deprovisioning"
    INSPECTING = "inspecting"
    POWERING_OFF_BEFORE_DELETE = "powering off before delete"
    DELETING = "deleting"


# --- appended by the chain (functions) ---------------------------------------------------
HOST_NAMESPACE_LABEL: Final = "dhcpless.metal3.io/host-namespace"
"""On IPClaims we create: the namespace of the BareMetalHost (claims live in the pool's)."""

NUDGED_ANNOTATION: Final = "dhcpless.metal3.io/nudged-at"
"""On a claim of ours IPAM left unanswered while its pool waited for its Cluster: written once
the Cluster exists, so IPAM (which does not watch Clusters) reconciles the pool again."""

HOST_UID_ANNOTATION: Final = "dhcpless.metal3.io/host-uid"
"""On everything we create: the UID of the host it serves (`chain.identity`). Needed where an
ownerReference cannot carry it (an object in another namespace than the host)."""


# --- appended by pre-unpause validation and nmstate output (render) -----------------------
class OpenStackNetworkType(StrEnum):
    """`networks[].type` in OpenStack network_data.json, as CAPM3 renders them."""

    IPV4 = "ipv4"
    IPV6 = "ipv6"
    IPV4_DHCP = "ipv4_dhcp"
    IPV6_DHCP = "ipv6_dhcp"
    IPV6_SLAAC = "ipv6_slaac"


class LinkKind(StrEnum):
    """How consumers (glean, nmstate) treat a `links[]` entry: every other type is a NIC."""

    ETHERNET = "ethernet"
    BOND = "bond"
    VLAN = "vlan"


class ValidationRule(StrEnum):
    """The checks run on rendered network data before a host is unpaused."""

    DOCUMENT = "document"
    RENDER = "render"
    LINK_MAC = "link-mac"
    BOOT_MAC = "boot-mac"
    LINK_REFERENCE = "link-reference"
    LINK_CYCLE = "link-cycle"
    NAME = "name"
    ADDRESS = "address"
    ROUTE = "route"
    DNS = "dns"
    POOL_OVERLAP = "pool-overlap"
    IRONIC = "ironic"
    """What Ironic's API refuses as node `network_data` (`render.validate_ironic`)."""


# --- appended by release bookkeeping, hang detection, status and dead-letter -------------
RELEASED_AT_ANNOTATION: Final = "dhcpless.metal3.io/released-at"
"""On a host we released: when (RFC 3339, UTC), written by the release patch itself."""

REGISTRATION_ERROR: Final = "registration error"
"""BMO's `status.errorType` when it cannot register the host (e.g. its Secret is missing)."""

DEAD_LETTER_FUNCTION: Final = "dead-letter"
"""The dead-letter sink's Service name: served by the image, but not one of `FunctionName`."""

NAMESPACE_ENV: Final = "NAMESPACE"
"""resync: the one namespace whose hosts it lists (default: the pod's own namespace)."""

NAMESPACE_SELECTOR_ENV: Final = "DHCPLESS_NAMESPACE_SELECTOR"
"""resync, cluster-wide option: a label selector on Namespaces (the sources' namespaceSelector);
set, resync lists the hosts of every namespace it selects instead of its one `NAMESPACE`."""

HANG_SECONDS_ENV: Final = "DHCPLESS_HANG_SECONDS"
"""Seconds a released host may stay inspecting before a Warning says it hangs (default 900)."""

SERVICE_ACCOUNT_NAMESPACE_FILE: Final = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"


# --- appended by the IP lifecycle, self-healing and external IPAM (issue 6) -----------------
CAPM3_DATA_FINALIZER: Final = "metal3data.infrastructure.cluster.x-k8s.io"
CAPM3_DATA_NAME_LABEL: Final = "infrastructure.cluster.x-k8s.io/data-name"
CAPM3_POOL_NAME_LABEL: Final = "infrastructure.cluster.x-k8s.io/pool-name"
CAPI_IPAM_VERSION: Final = "v1beta1"
"""CAPI's IPAddressClaim/IPAddress version the chain reads and writes (CAPI v1.x)."""


# --- appended by performance (issue 8) ---------------------------------------------------------
DONE_LABEL: Final = "dhcpless.metal3.io/done"
"""Set by earlier versions on hosts they thought needed nothing more; no longer written (CAPM3
may borrow a host's claims after any re-provisioning: `chain.lifecycle`). The BareMetalHost
source still leaves such hosts out; resync looks at them (README "Performance")."""
DONE_VALUE: Final = "true"

CLAIM_TEMPLATE_ANNOTATION: Final = "dhcpless.metal3.io/template"
"""On the IPClaims we create: the template they were created from (`TemplateRef` as text)."""
CLAIM_POOLS_ANNOTATION: Final = "dhcpless.metal3.io/pools"
"""On the IPClaims we create: every pool the host claims from (comma-separated), so
ipclaim-fulfilment knows from one LIST of addresses whether the last claim is fulfilled."""

WRITER_RELEASES_LABEL: Final = "dhcpless.metal3.io/writer-releases"
"""On the Secrets our functions write: the invocation that writes one releases its host in
the same act, so the Secret source leaves these out and secret-readiness serves the others
(Secrets with our labels written by hand or by an older version)."""
WRITER_RELEASES_VALUE: Final = "true"

NETWORK_DATA_FORMAT_ANNOTATION: Final = "dhcpless.metal3.io/network-data-format"
"""On a template (and recorded on the Secret we write): a `NetworkDataFormat` value."""


class NetworkDataFormat(StrEnum):
    """What the Secret holds, chosen per template with `NETWORK_DATA_FORMAT_ANNOTATION`."""

    OPENSTACK = "openstack"
    """`networkData`: OpenStack network_data.json (what BMO hands Ironic and glean reads)."""
    NMSTATE = "nmstate"
    """Also key `nmstate`: nmstate YAML (what OpenShift's image customization reads, with BMO
    `--build-preprov-image`); `networkData` stays OpenStack, so it works with stock BMO too."""
    NMSTATE_IN_NETWORK_DATA = "nmstate-in-networkdata"
    """`networkData` holds nmstate YAML instead: only for a PreprovisioningImage builder that
    reads `networkData` as nmstate. Stock BMO hands `networkData` to Ironic, whose schema refuses
    nmstate (the host would stay `registering`), so it needs `PREPROV_IMAGE_BUILDER_ANNOTATION`."""


PREPROV_IMAGE_BUILDER_ANNOTATION: Final = "dhcpless.metal3.io/preprov-image-builder"
"""On a template, "true": its hosts' BMO runs with `--build-preprov-image`, so BMO does not set
the Ironic node's `network_data` and a PreprovisioningImage builder reads the Secret instead.
Decides which `NetworkDataFormat`s can work (`chain.formats`)."""


# --- admission scope and what manifests carry ---------------------------------------------
PREPROVISIONING_SCOPE_LABEL: Final = "dhcpless.metal3.io/preprovisioning"
"""Scope of `deploy/admission/`: on a Namespace, `enabled` puts its BareMetalHosts in scope;
on a host, `disabled` leaves it out (the functions do not warn about it either)."""

SCOPE_ENABLED: Final = "enabled"
SCOPE_DISABLED: Final = "disabled"

LAST_APPLIED_ANNOTATION: Final = "kubectl.kubernetes.io/last-applied-configuration"
"""What client-side `kubectl apply` (and Argo CD) last applied: tells whether a manifest
carries the pause."""
