"""Pydantic models of the Kubernetes objects the project reads and writes."""

from dhcpless.models.base import ModelError
from dhcpless.models.bmh import BareMetalHost
from dhcpless.models.capi_ipam import CapiIPAddress, IPAddressClaim
from dhcpless.models.ipam import IPAddress, IPClaim, IPPool
from dhcpless.models.netdata import NetworkData
from dhcpless.models.secret import Secret
from dhcpless.models.templates import (
    Metal3DataTemplate,
    Metal3MachineTemplate,
    Metal3PreprovisioningDataTemplate,
    NetworkTemplate,
    network_template_from_k8s,
)

__all__ = [
    "BareMetalHost",
    "CapiIPAddress",
    "IPAddress",
    "IPAddressClaim",
    "IPClaim",
    "IPPool",
    "Metal3DataTemplate",
    "Metal3MachineTemplate",
    "Metal3PreprovisioningDataTemplate",
    "ModelError",
    "NetworkData",
    "NetworkTemplate",
    "Secret",
    "network_template_from_k8s",
]
