"""The parts of ObjectMeta and object references that the project reads or writes."""

from __future__ import annotations

from pydantic import Field

from dhcpless.models.base import K8sModel


class OwnerReference(K8sModel):
    """metadata.ownerReferences[]: used for garbage collection of what we create."""

    api_version: str
    kind: str
    name: str
    uid: str
    controller: bool | None = None
    block_owner_deletion: bool | None = None


class ObjectReference(K8sModel):
    """A `{name, namespace}` pointer, as in IPClaim.spec.pool or dataTemplate."""

    name: str = ""
    namespace: str | None = None
    kind: str | None = None
    api_version: str | None = None


class ObjectMeta(K8sModel):
    """The subset of metadata the functions decide on."""

    name: str = ""
    namespace: str | None = None
    generate_name: str | None = None
    uid: str | None = None
    resource_version: str | None = None
    generation: int | None = None
    labels: dict[str, str] = Field(default_factory=dict)
    annotations: dict[str, str] = Field(default_factory=dict)
    finalizers: tuple[str, ...] = ()
    owner_references: tuple[OwnerReference, ...] = ()
    deletion_timestamp: str | None = None
    creation_timestamp: str | None = None
