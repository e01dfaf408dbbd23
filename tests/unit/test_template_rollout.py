"""docs/deploy.md "Rolling out a new Metal3MachineTemplate": while the old and the new template
both select a host it is ambiguous, and each of the three ways through resolves it."""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless.keys import TEMPLATE_REFERENCE_ANNOTATION
from dhcpless.models import BareMetalHost, Metal3MachineTemplate
from dhcpless.templates.resolve import Ambiguous, Resolved, resolve_template

from .hosts import make_host
from .test_resolve import GROUP, m3mt

ROOT_DOC = "Rolling out a new Metal3MachineTemplate"
WORKERS = {"matchLabels": {"role": "worker"}}
OLD = m3mt("worker-v1", WORKERS, template="worker-v1")
NEW = m3mt("worker-v2", WORKERS, template="worker-v2")
SAME_DATA = m3mt("worker-v2", WORKERS, template="worker-v1")
NEW_LABELLED = m3mt(
    "worker-v2", {"matchLabels": {"role": "worker", "rollout": "v2"}}, template="worker-v2"
)


def _host(labels: dict[str, str], annotations: dict[str, str] | None = None) -> BareMetalHost:
    return make_host(labels=labels, annotations=annotations or {})


NAMED = {TEMPLATE_REFERENCE_ANNOTATION: f"metal3datatemplates.{GROUP}/worker-v2"}


@pytest.mark.parametrize(
    ("host", "templates", "expected"),
    [
        pytest.param(_host({"role": "worker"}), [OLD, NEW], None, id="during-the-rollout"),
        pytest.param(_host({"role": "worker"}, NAMED), [OLD, NEW], "worker-v2",
                     id="1-the-host-names-its-template"),
        pytest.param(_host({"role": "worker"}), [OLD, SAME_DATA], "worker-v1",
                     id="2-the-same-data-template"),
        pytest.param(_host({"role": "worker", "rollout": "v2"}), [OLD, NEW_LABELLED], None,
                     id="a-label-in-the-new-selector-alone-does-not-help"),
        pytest.param(_host({"role": "worker"}), [NEW], "worker-v2", id="3-the-old-one-deleted"),
    ],
)  # fmt: skip
def test_a_rollout_and_the_ways_through(
    host: BareMetalHost, templates: list[Metal3MachineTemplate], expected: str | None
) -> None:
    found: Any = resolve_template(host, templates)
    if expected is None:
        assert isinstance(found, Ambiguous)
        assert {c.template.name for c in found.candidates} == {"worker-v1", "worker-v2"}
        return
    assert isinstance(found, Resolved) and found.ref.name == expected


def test_the_guide_has_the_section() -> None:
    from tests.manifests.support import ROOT

    guide = (ROOT / "docs" / "deploy.md").read_text()
    assert f"### {ROOT_DOC}" in guide and "tests/unit/test_template_rollout.py" in guide
