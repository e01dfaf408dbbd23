"""Typed pointers to templates: what resolution produces and what the adapter reads by.

Kept with the models rather than in `dhcpless.templates.resolve`, so the adapter
(`dhcpless.kube`) can read a template by its reference without importing template resolution.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class TemplateKind(StrEnum):
    """Resource plurals a host may point at; the value is what the annotation spells."""

    METAL3_DATA_TEMPLATE = "metal3datatemplates"
    METAL3_PREPROVISIONING_DATA_TEMPLATE = "metal3preprovisioningdatatemplates"

    @property
    def kind(self) -> str:
        """The object kind, e.g. `Metal3DataTemplate`."""
        if self is TemplateKind.METAL3_DATA_TEMPLATE:
            return "Metal3DataTemplate"
        return "Metal3PreprovisioningDataTemplate"


@dataclass(frozen=True, order=True, slots=True)
class TemplateRef:
    plural: TemplateKind
    group: str
    name: str
    namespace: str

    def __str__(self) -> str:
        return f"{self.plural.value}.{self.group}/{self.namespace}/{self.name}"
