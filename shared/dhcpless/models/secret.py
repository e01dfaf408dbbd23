"""Secret (v1): the object that carries rendered network data.

Its data must never reach a log line or an error message, so the model's repr and
str show only the keys, never the values.
"""

from __future__ import annotations

import base64
from typing import ClassVar

from pydantic import Field

from dhcpless.models.base import K8sObject
from dhcpless.models.meta import ObjectMeta


class Secret(K8sObject):
    KIND: ClassVar[str] = "Secret"

    api_version: str = "v1"
    kind: str = "Secret"
    metadata: ObjectMeta = Field(default_factory=ObjectMeta)
    type: str = "Opaque"
    data: dict[str, str] = Field(default_factory=dict, repr=False)
    """Values are base64, as on the wire."""

    def __repr__(self) -> str:
        keys = ", ".join(sorted(self.data))
        return (
            f"Secret(name={self.metadata.name!r}, namespace={self.metadata.namespace!r}, "
            f"type={self.type!r}, data_keys=[{keys}])"
        )

    __str__ = __repr__

    def decoded(self, key: str) -> str | None:
        """The UTF-8 text stored under `key`, or None when the key is absent."""
        raw = self.data.get(key)
        return None if raw is None else base64.b64decode(raw).decode()

    @staticmethod
    def encode(text: str) -> str:
        """Base64 for a `data` value."""
        return base64.b64encode(text.encode()).decode()
