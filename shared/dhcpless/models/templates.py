"""The three template kinds that can tell us a host's network data.

* Metal3DataTemplate (CAPM3, v1beta1 or v1beta2): `spec.networkData`.
* Metal3PreprovisioningDataTemplate (the revised DHCP-less design; our own CRD in the
  same group): `spec.preprovisioningNetworkData`, same schema.
* Metal3MachineTemplate: only its `hostSelector` and `dataTemplate` matter here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import Field

from dhcpless.models.base import K8sModel, K8sObject, ModelError
from dhcpless.models.meta import ObjectMeta
from dhcpless.models.netdata import NetworkData


class Metal3DataTemplateSpec(K8sModel):
    cluster_name: str | None = None
    network_data: NetworkData | None = None


class Metal3DataTemplate(K8sObject):
    KIND: ClassVar[str] = "Metal3DataTemplate"

    api_version: str = "infrastructure.cluster.x-k8s.io/v1beta2"
    kind: str = "Metal3DataTemplate"
    metadata: ObjectMeta = Field(default_factory=ObjectMeta)
    spec: Metal3DataTemplateSpec = Field(default_factory=Metal3DataTemplateSpec)

    @property
    def network_data(self) -> NetworkData | None:
        return self.spec.network_data


class Metal3PreprovisioningDataTemplateSpec(K8sModel):
    preprovisioning_network_data: NetworkData | None = None


class Metal3PreprovisioningDataTemplate(K8sObject):
    KIND: ClassVar[str] = "Metal3PreprovisioningDataTemplate"

    api_version: str = "infrastructure.cluster.x-k8s.io/v1beta2"
    kind: str = "Metal3PreprovisioningDataTemplate"
    metadata: ObjectMeta = Field(default_factory=ObjectMeta)
    spec: Metal3PreprovisioningDataTemplateSpec = Field(
        default_factory=Metal3PreprovisioningDataTemplateSpec
    )

    @property
    def network_data(self) -> NetworkData | None:
        return self.spec.preprovisioning_network_data


NetworkTemplate = Metal3DataTemplate | Metal3PreprovisioningDataTemplate
"""Either kind that carries a networkData schema."""

_TEMPLATE_KINDS: dict[str, type[Metal3DataTemplate] | type[Metal3PreprovisioningDataTemplate]] = {
    "Metal3DataTemplate": Metal3DataTemplate,
    "Metal3PreprovisioningDataTemplate": Metal3PreprovisioningDataTemplate,
}


def network_template_from_k8s(obj: Mapping[str, Any]) -> NetworkTemplate:
    """Parse either template kind, chosen by `kind`."""
    model = _TEMPLATE_KINDS.get(str(obj.get("kind", "")))
    if model is None:
        raise ModelError(
            f"expected kind Metal3DataTemplate or Metal3PreprovisioningDataTemplate, "
            f"got {obj.get('kind')!r}"
        )
    return model.from_k8s(obj)


class LabelSelectorRequirement(K8sModel):
    key: str
    operator: str
    values: tuple[str, ...] = ()


class HostSelector(K8sModel):
    match_labels: dict[str, str] = Field(default_factory=dict)
    match_expressions: tuple[LabelSelectorRequirement, ...] = ()


class DataTemplateRef(K8sModel):
    name: str
    namespace: str | None = None


class Metal3MachineSpec(K8sModel):
    host_selector: HostSelector | None = None
    data_template: DataTemplateRef | None = None


class Metal3MachineTemplateResource(K8sModel):
    spec: Metal3MachineSpec = Field(default_factory=Metal3MachineSpec)


class Metal3MachineTemplateSpec(K8sModel):
    template: Metal3MachineTemplateResource = Field(default_factory=Metal3MachineTemplateResource)


class Metal3MachineTemplate(K8sObject):
    KIND: ClassVar[str] = "Metal3MachineTemplate"

    api_version: str = "infrastructure.cluster.x-k8s.io/v1beta2"
    kind: str = "Metal3MachineTemplate"
    metadata: ObjectMeta = Field(default_factory=ObjectMeta)
    spec: Metal3MachineTemplateSpec = Field(default_factory=Metal3MachineTemplateSpec)

    @property
    def host_selector(self) -> HostSelector:
        return self.spec.template.spec.host_selector or HostSelector()

    @property
    def data_template(self) -> DataTemplateRef | None:
        return self.spec.template.spec.data_template
