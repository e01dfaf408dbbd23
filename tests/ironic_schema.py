"""Ironic's own network_data schema, loaded from `../shared/schemas/` beside the checkout.

The schema is upstream data (openstack/ironic `ironic/api/controllers/v1/network-data-schema.json`)
and is never copied into the project; tests judge our rules and our output against it with
jsonschema, the way Ironic's `validate_network_data` does (`jsonschema.validate`).
"""

from __future__ import annotations

import functools
import json
from typing import Any

import jsonschema

from tests.support import upstream

SCHEMA_PATH = upstream.SCHEMAS / "ironic" / "network-data-schema.json"


@functools.cache
def ironic_schema() -> dict[str, Any]:
    """The schema; a clear failure when `../shared` is not beside the checkout."""
    loaded: dict[str, Any] = json.loads(upstream.required(SCHEMA_PATH).read_text())
    return loaded


def ironic_errors(document: Any) -> list[str]:
    """Why Ironic would refuse `document` (empty: it accepts it), one line per error."""
    validator = jsonschema.Draft7Validator(ironic_schema())
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in validator.iter_errors(document)
    ]


def schema_check(document: Any) -> list[str]:
    """A `NetworkDataCheck` for the BMO stand-in: Ironic's schema, reasons without values."""
    validator = jsonschema.Draft7Validator(ironic_schema())
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(document)'}: fails {e.validator}"
        for e in validator.iter_errors(document)
    ]
