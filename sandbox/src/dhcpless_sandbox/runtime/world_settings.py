"""What the embedded world is built from (`WorldSettings`) and what it reports (`Counters`).

Kept apart from `world` so code that only configures or reads a world (the demo, the bench,
tests) sees its knobs in one short module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from dhcpless_sandbox.apiserver.store import HISTORY
from dhcpless_sandbox.eventing.delivery import BrokerMode
from dhcpless_sandbox.eventing.faults import Faults
from dhcpless_sandbox.standins.ramdisk import GleanMode
from dhcpless_sandbox.standins.reusing_product.ironic import NetworkDataCheck, project_rules

EVERY_NAMESPACE = "kubernetes.io/metadata.name"
"""A Namespace selector that selects every namespace: the API server labels each with its own
name (kubernetes `pkg/registry/core/namespace/strategy.go`, `PrepareForCreate`, the label
`kubernetes.io/metadata.name`; the sandbox does too, `apiserver.core_kinds`)."""


@dataclass(frozen=True)
class WorldSettings:
    """Knobs for demos and tests; the defaults suit an interactive demo."""

    port: int = 0
    idle_seconds: float = 3.0
    """Scale-to-zero window of each function."""
    resync_seconds: float = 5.0
    broker_workers: int = 8
    broker_mode: BrokerMode | None = None
    """None: the broker's default (synchronous, as installed; see `BrokerMode`)."""
    bmo_workers: int = 4
    glean_mode: GleanMode = GleanMode.SUBPROCESS
    network_data_check: NetworkDataCheck = project_rules
    """How the BMO stand-in's Ironic judges network data (tests inject Ironic's own schema)."""
    faults: Faults = field(default_factory=Faults)
    ipam_delay: float = 0.0
    crd_files: tuple[Path, ...] = ()
    """Extra CRD files to load after the built-in ones (tests load the upstream CRDs)."""
    namespace: str = "demo"
    """The namespace resync lists hosts in (a deployment's: its own; the demo's: `demo`)."""
    rbac_files: tuple[Path, ...] = ()
    """RBAC manifests (deploy/base, eventing) to enforce: each function and each source then
    calls the API as its own ServiceAccount in `namespace` (see
    `dhcpless_sandbox.apiserver.rbac`)."""
    namespace_selector: str = ""
    """The cluster-wide option (deploy/cluster-wide): the sources watch every namespace, as
    an ApiServerSource with a `namespaceSelector` does under its ClusterRole, and resync lists
    the hosts of the namespaces this label selector selects."""
    watch_limit: int | None = None
    """Bounded watches: a watcher that falls this many events behind is closed, as the cacher
    closes one that does not keep up (`apiserver.store.Store.watch_limit`); None: unbounded."""
    watch_history: int = HISTORY
    """Watch events the API server keeps for re-watches (older: 410 Gone, then a relist)."""
    identities: bool = False
    """Each function and source calls as its own ServiceAccount even without RBAC (so fault
    injection and the audit can tell them from the stand-ins)."""


@dataclass(frozen=True)
class Counters:
    """What the demo's summary reports: API traffic, function invocations and cold starts."""

    api_requests: dict[str, int]
    invocations: dict[str, int]
    cold_starts: int
    dead_letters: int
