"""Labels: ours on the objects we create, BMO's Secret cache label, CAPM3's, and the
admission scope."""

from __future__ import annotations

from typing import Final

__all__ = [
    "BMO_SECRET_LABEL",
    "BMO_SECRET_LABEL_VALUE",
    "CAPM3_DATA_NAME_LABEL",
    "CAPM3_POOL_NAME_LABEL",
    "DONE_LABEL",
    "DONE_VALUE",
    "HOST_LABEL",
    "HOST_NAMESPACE_LABEL",
    "MANAGED_BY_LABEL",
    "MANAGED_BY_VALUE",
    "PREPROVISIONING_SCOPE_LABEL",
    "SCOPE_DISABLED",
    "SCOPE_ENABLED",
    "WRITER_RELEASES_LABEL",
    "WRITER_RELEASES_VALUE",
]

HOST_LABEL: Final = "dhcpless.metal3.io/host"
"""On IPClaims and Secrets we create: the name of the BareMetalHost they serve."""

HOST_NAMESPACE_LABEL: Final = "dhcpless.metal3.io/host-namespace"
"""On IPClaims we create: the namespace of the BareMetalHost (claims live in the pool's)."""

MANAGED_BY_LABEL: Final = "app.kubernetes.io/managed-by"
MANAGED_BY_VALUE: Final = "metal3-dhcpless"
BMO_SECRET_LABEL: Final = "environment.metal3.io"
BMO_SECRET_LABEL_VALUE: Final = "baremetal"
"""BMO's cache only sees Secrets carrying this label (reference §e.3)."""

DONE_LABEL: Final = "dhcpless.metal3.io/done"
"""On a host whose release left nothing for us (`chain.decide.quiet`): the BareMetalHost source
leaves it out, so BMO's status updates of released hosts reach no function; CAPM3's Metal3Data
events and resync still look at it (README "Performance"). Remove it to have a host looked at
again on its events; a re-paused host's release removes it."""

DONE_VALUE: Final = "true"
WRITER_RELEASES_LABEL: Final = "dhcpless.metal3.io/writer-releases"
"""On the Secrets our functions write: the invocation that writes one releases its host in
the same act, so the Secret source leaves these out and secret-readiness serves the others
(Secrets with our labels written by hand or by an older version)."""

WRITER_RELEASES_VALUE: Final = "true"
CAPM3_DATA_NAME_LABEL: Final = "infrastructure.cluster.x-k8s.io/data-name"
CAPM3_POOL_NAME_LABEL: Final = "infrastructure.cluster.x-k8s.io/pool-name"
PREPROVISIONING_SCOPE_LABEL: Final = "dhcpless.metal3.io/preprovisioning"
"""Scope of `deploy/admission/`: on a Namespace, `enabled` puts its BareMetalHosts in scope;
on a host, `disabled` leaves it out (the functions do not warn about it either)."""

SCOPE_ENABLED: Final = "enabled"
SCOPE_DISABLED: Final = "disabled"
