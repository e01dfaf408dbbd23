"""Does a Secret hold network data BMO and glean can use? Checked before any host points at it.

BMO reads `networkData` (falling back to `value`) with a YAML parser, so JSON and YAML are both
accepted here too. The shape checked is the OpenStack network_data.json one CAPM3 renders:
an object with `links`, `networks` and `services` lists whose entries carry `id`/`type`.
Problems are reported without quoting the data (Secret contents are never echoed).
"""

from __future__ import annotations

from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dhcpless import keys
from dhcpless.models import Secret


class _Entry(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1)
    type: str = Field(min_length=1)


class _Network(_Entry):
    link: str = Field(min_length=1)


class _NetworkData(BaseModel):
    model_config = ConfigDict(extra="allow")

    links: list[_Entry]
    networks: list[_Network]
    services: list[dict[str, Any]] = []


def problem(secret: Secret) -> str | None:
    """None when usable, else a short reason naming the Secret (never its content)."""
    where = f"Secret {secret.metadata.namespace}/{secret.metadata.name}"
    try:
        text = secret.decoded(keys.NETWORK_DATA_KEY)
    except ValueError:  # bad base64 or not UTF-8
        return f"{where}: {keys.NETWORK_DATA_KEY} is not base64-encoded UTF-8"
    if not text or not text.strip():
        return f"{where} has no {keys.NETWORK_DATA_KEY}"
    try:
        _NetworkData.model_validate(yaml.safe_load(text))
    except (yaml.YAMLError, ValidationError):
        return f"{where}: {keys.NETWORK_DATA_KEY} is not OpenStack network data"
    return None
