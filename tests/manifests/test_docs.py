"""The YAML examples in docs/deploy.md are objects the API server would accept.

Covers: every ```yaml block of the deploy guide parses, and each object validates against
the CRD that serves its kind (our Metal3PreprovisioningDataTemplate CRD, upstream BMO's
BareMetalHost CRD), so the guide cannot drift from the schemas.
"""

from __future__ import annotations

import re

import pytest
import yaml

from .schemas import crd_errors, validators_of
from .support import ROOT, SHARED_CRDS, Obj

GUIDE = ROOT / "docs" / "deploy.md"
CRD_FILES = [
    ROOT / "deploy" / "crds" / "metal3preprovisioningdatatemplates.yaml",
    SHARED_CRDS / "metal3" / "metal3.io_baremetalhosts.yaml",
]


def _examples() -> list[Obj]:
    blocks = re.findall(r"```yaml\n(.*?)```", GUIDE.read_text(), flags=re.DOTALL)
    return [doc for block in blocks for doc in yaml.safe_load_all(block) if doc]


def test_guide_has_examples() -> None:
    assert {o["kind"] for o in _examples()} == {
        "BareMetalHost",
        "Metal3PreprovisioningDataTemplate",
    }


@pytest.mark.parametrize("example", [pytest.param(o, id=o["kind"]) for o in _examples()])
def test_example_is_valid(example: Obj) -> None:
    validators = {k: v for path in CRD_FILES for k, v in validators_of(path).items()}
    validator = validators[(example["apiVersion"], example["kind"])]
    assert crd_errors(validator, example) == []
