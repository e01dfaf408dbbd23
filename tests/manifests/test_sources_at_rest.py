"""The two ApiServerSource selectors issue 8 relies on, in the manifests and in the sandbox.

Covers: the BareMetalHost source leaves out hosts marked done (a fleet at rest invokes
nothing); the Secret source selects our Secrets but those whose writer released the host;
the embedded world's wiring uses the same selectors (same label keys, same operators).
"""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless import keys
from dhcpless_sandbox.runtime.wiring import SOURCES

from .support import Obj, named


def _resource(installed: list[Obj], source: str, kind: str) -> dict[str, Any]:
    spec = named(installed, "ApiServerSource", source)["spec"]
    found: dict[str, Any] = next(r for r in spec["resources"] if r["kind"] == kind)
    return found


def _wired(kind: str) -> set[str]:
    entry = next(s for s in SOURCES if s.resource.kind == kind)
    return set((entry.resource.label_selector or "").split(","))


@pytest.mark.parametrize(
    ("source", "kind", "absent", "present"),
    [
        pytest.param("dhcpless-baremetalhosts", "BareMetalHost", keys.DONE_LABEL, None,
                     id="hosts-not-done"),
        pytest.param("dhcpless-secrets", "Secret", keys.WRITER_RELEASES_LABEL,
                     keys.MANAGED_BY_LABEL, id="secrets-not-released-by-writer"),
    ],
)  # fmt: skip
def test_selector(
    installed: list[Obj], source: str, kind: str, absent: str, present: str | None
) -> None:
    selector = _resource(installed, source, kind)["selector"]
    assert {"key": absent, "operator": "DoesNotExist"} in selector["matchExpressions"]
    assert f"!{absent}" in _wired(kind)
    if present is not None:
        value = selector["matchLabels"][present]
        assert f"{present}={value}" in _wired(kind)
