"""What CAPM3 undoes when a Metal3Machine goes: the CAPM3 stand-in's deprovisioning writes.

Exists apart from the controller (`capm3`) to keep it small. Upstream order
(cluster-api-provider-metal3 `controllers/metal3machine_controller.go` `reconcileDelete`):

1. `DissociateM3Metadata` deletes the Metal3DataClaim; the Metal3DataTemplate controller deletes
   its Metal3Data (`metal3datatemplate_manager.go` `deleteMetal3DataAndClaim`), whose deletion
   releases the claims (`metal3data_manager.go` `ReleaseLeases` -> `releaseAddressFromM3Pool`,
   per pool): every claim labelled with the Metal3Data's data and pool names, **then the claim
   named `<metal3data>-<pool>`, whoever made it** (its CAPM3 finalizer removed first).
2. `metal3machine_manager.go` `Delete` clears the host's `spec.image` and `spec.networkData`
   (BMO deprovisions and cleans) and requeues while the host is in a provisioning state; only
   then does it clear `spec.consumerRef` (`dissociate` here), and the Metal3Machine goes.
"""

from __future__ import annotations

from collections.abc import Iterable

from dhcpless import keys
from dhcpless.keys import ProvisioningState
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.standins.capm3_objects import machine_name

WAITING = frozenset(
    s.value
    for s in (
        ProvisioningState.PREPARING,
        ProvisioningState.PROVISIONING,
        ProvisioningState.PROVISIONED,
        ProvisioningState.DEPROVISIONING,
        ProvisioningState.POWERING_OFF_BEFORE_DELETE,
        ProvisioningState.DELETING,
    )
)
"""States in which `Delete` requeues instead of clearing `consumerRef`."""


def release_claims(ipam: CustomObjects, namespace: str, data: str, pool: str) -> list[str]:
    """`releaseAddressFromM3Pool` for one pool: the names of the claims it deleted."""
    deleted: list[str] = []
    selector = f"{keys.CAPM3_DATA_NAME_LABEL}={data},{keys.CAPM3_POOL_NAME_LABEL}={pool}"
    for claim in ipam.list_items("ipclaims", namespace, selector):
        ipam.remove_finalizer("ipclaims", claim, keys.CAPM3_DATA_FINALIZER)
        ipam.delete("ipclaims", namespace, claim["metadata"]["name"])
        deleted.append(claim["metadata"]["name"])
    named = ipam.get("ipclaims", namespace, f"{data}-{pool}")
    if named is not None and not named["metadata"].get("deletionTimestamp"):
        ipam.remove_finalizer("ipclaims", named, keys.CAPM3_DATA_FINALIZER)
        ipam.delete("ipclaims", namespace, named["metadata"]["name"])
        deleted.append(named["metadata"]["name"])
    return deleted


def release(
    hosts: CustomObjects,
    ipam: CustomObjects,
    capm3: CustomObjects,
    namespace: str,
    host: str,
    pools: Iterable[str],
) -> list[str]:
    """Step 1 and the first half of step 2: the claims released (their names), the
    Metal3Data and Metal3DataClaim gone, the host's image and networkData cleared."""
    deleted: list[str] = []
    claim = machine_name(host)
    for data in capm3.list_items("metal3datas", namespace):
        if (data.get("spec") or {}).get("claim", {}).get("name") != claim:
            continue
        for pool in pools:
            deleted += release_claims(ipam, namespace, data["metadata"]["name"], pool)
        capm3.delete("metal3datas", namespace, data["metadata"]["name"])
    if capm3.get("metal3dataclaims", namespace, claim) is not None:
        capm3.delete("metal3dataclaims", namespace, claim)
    hosts.patch("baremetalhosts", namespace, host, {"spec": {"image": None, "networkData": None}})
    return deleted


def dissociate(hosts: CustomObjects, capm3: CustomObjects, namespace: str, host: str) -> None:
    """The second half of step 2, once the host left every `WAITING` state."""
    hosts.patch("baremetalhosts", namespace, host, {"spec": {"consumerRef": None}})
    if capm3.get("metal3machines", namespace, machine_name(host)) is not None:
        capm3.delete("metal3machines", namespace, machine_name(host))
