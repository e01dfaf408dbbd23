"""A ConfigMap, as far as we read one: resync's cursor (`functions.resync.cursor`)."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from dhcpless.models.base import K8sObject
from dhcpless.models.meta import ObjectMeta


class ConfigMap(K8sObject):
    KIND: ClassVar[str] = "ConfigMap"

    api_version: str = "v1"
    kind: str = "ConfigMap"
    metadata: ObjectMeta = Field(default_factory=ObjectMeta)
    data: dict[str, str] = Field(default_factory=dict)
