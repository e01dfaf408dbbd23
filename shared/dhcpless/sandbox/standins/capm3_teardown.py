"""What CAPM3 undoes when a Metal3Machine goes: the CAPM3 stand-in's deprovisioning writes.

Exists apart from the controller (`capm3`) to keep it small. Upstream
(cluster-api-provider-metal3 `baremetal/metal3machine_manager.go` `Delete`): the host's
`spec.image`, `spec.networkData` and `spec.consumerRef` are cleared (BMO then deprovisions and
cleans); the Metal3Data's claims are released by `releaseAddressFromM3Pool`
(`baremetal/metal3data_manager.go`), which deletes only the claims the Metal3Data made (its
data-name label), never a claim it borrowed; then the Metal3Data, its Metal3DataClaim and the
Metal3Machine go.
"""

from __future__ import annotations

from dhcpless import keys
from dhcpless.sandbox.controllers.custom_objects import CustomObjects
from dhcpless.sandbox.standins.capm3_objects import data_name, machine_name


def release(
    hosts: CustomObjects, ipam: CustomObjects, capm3: CustomObjects, namespace: str, host: str
) -> None:
    """Deprovision `host` as a Metal3Machine deletion does."""
    spec = {"image": None, "networkData": None, "consumerRef": None}
    hosts.patch("baremetalhosts", namespace, host, {"spec": spec})
    for claim in ipam.list_items("ipclaims", namespace):
        labels = claim["metadata"].get("labels") or {}
        if labels.get(keys.CAPM3_DATA_NAME_LABEL) == data_name(host):
            ipam.remove_finalizer("ipclaims", claim, keys.CAPM3_DATA_FINALIZER)
            ipam.delete("ipclaims", namespace, claim["metadata"]["name"])
    for plural, name in (
        ("metal3datas", data_name(host)),
        ("metal3dataclaims", machine_name(host)),
        ("metal3machines", machine_name(host)),
    ):
        if capm3.get(plural, namespace, name) is not None:
            capm3.delete(plural, namespace, name)
