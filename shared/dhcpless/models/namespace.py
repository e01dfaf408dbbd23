"""A Namespace, as far as we read one: its name (resync lists those a selector selects)."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from dhcpless.models.base import K8sObject
from dhcpless.models.meta import ObjectMeta


class Namespace(K8sObject):
    KIND: ClassVar[str] = "Namespace"

    metadata: ObjectMeta = Field(default_factory=ObjectMeta)
