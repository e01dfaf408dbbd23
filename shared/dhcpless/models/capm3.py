"""CAPM3's Metal3Data (infrastructure.cluster.x-k8s.io): only what lending a claim needs.

A Metal3Data's `spec.claim` names its Metal3DataClaim, which CAPM3 names after the
Metal3Machine (`baremetal/metal3machine_manager.go`, the Metal3DataClaim it creates) — the
Metal3Machine the BareMetalHost's `spec.consumerRef` names once CAPM3 associated them.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from dhcpless import keys
from dhcpless.models.base import K8sModel, K8sObject
from dhcpless.models.meta import ObjectMeta, ObjectReference


class Metal3DataSpec(K8sModel):
    claim: ObjectReference = Field(default_factory=ObjectReference)
    template: ObjectReference = Field(default_factory=ObjectReference)


class Metal3Data(K8sObject):
    KIND: ClassVar[str] = "Metal3Data"

    api_version: str = f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}"
    kind: str = "Metal3Data"
    metadata: ObjectMeta = Field(default_factory=ObjectMeta)
    spec: Metal3DataSpec = Field(default_factory=Metal3DataSpec)
