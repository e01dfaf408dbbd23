"""BareMetalHost (metal3.io/v1alpha1): the fields pre-provisioning depends on.

`status.hardware` is absent until BMO has inspected the host, which is exactly the
situation of every host we serve, so it stays optional all the way down.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import ConfigDict, Field

from dhcpless.keys import ProvisioningState
from dhcpless.models.base import K8sModel, K8sObject
from dhcpless.models.meta import ObjectMeta, ObjectReference


class NIC(K8sModel):
    """status.hardware.nics[]; CAPM3 tolerates empty entries, so every field defaults."""

    name: str = ""
    mac: str = ""
    ip: str = ""


class HardwareDetails(K8sModel):
    """status.hardware; `nics` None (never reported) differs from [] (reported empty)."""

    nics: tuple[NIC, ...] | None = None


class Provisioning(K8sModel):
    """status.provisioning; unknown future states are kept as plain strings."""

    model_config = ConfigDict(use_enum_values=False)

    state: ProvisioningState | str = Field(
        default=ProvisioningState.NONE, union_mode="left_to_right"
    )


class BareMetalHostStatus(K8sModel):
    provisioning: Provisioning = Field(default_factory=Provisioning)
    hardware: HardwareDetails | None = None
    error_type: str = ""
    error_message: str = ""
    operational_status: str = ""


class BMCDetails(K8sModel):
    """spec.bmc: only the address matters here (its scheme says how the ramdisk boots); the
    credentials live in a Secret we never read."""

    address: str = ""


class BareMetalHostSpec(K8sModel):
    bmc: BMCDetails | None = None
    boot_mac_address: str = Field(default="", alias="bootMACAddress")
    preprovisioning_network_data_name: str = ""
    online: bool = False
    consumer_ref: ObjectReference | None = None
    """Who uses the host: CAPM3 names its Metal3Machine here (`chain.lifecycle` lends to it)."""


class ManagedFieldsEntry(K8sModel):
    """metadata.managedFields[]: who owns which fields; an `Apply` entry owning our pause means
    a server-side-applied manifest holds it (`chain.decide.quiet`)."""

    manager: str = ""
    operation: str = ""
    fields_v1: dict[str, Any] = Field(default_factory=dict, alias="fieldsV1")


class HostMeta(ObjectMeta):
    """A host's metadata, with its field owners (the only kind whose owners we read)."""

    managed_fields: tuple[ManagedFieldsEntry, ...] = ()


class BareMetalHost(K8sObject):
    """A host; `metadata.annotations` carries the pause and the template reference."""

    KIND: ClassVar[str] = "BareMetalHost"

    api_version: str = "metal3.io/v1alpha1"
    kind: str = "BareMetalHost"
    metadata: HostMeta = Field(default_factory=HostMeta)
    spec: BareMetalHostSpec = Field(default_factory=BareMetalHostSpec)
    status: BareMetalHostStatus = Field(default_factory=BareMetalHostStatus)

    @property
    def name(self) -> str:
        return self.metadata.name

    @property
    def namespace(self) -> str:
        return self.metadata.namespace or "default"

    @property
    def annotations(self) -> dict[str, str]:
        return self.metadata.annotations

    @property
    def labels(self) -> dict[str, str]:
        return self.metadata.labels
