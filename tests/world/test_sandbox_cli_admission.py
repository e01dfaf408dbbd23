"""`dhcpless sandbox` with deploy/admission applied by kubectl: the examples without the pause.

Covers the issue's first must-show as a user would run it: `kubectl apply -k deploy/admission`,
the example namespace labelled in scope, the example hosts applied with their pause annotation
removed; every one arrives paused (the create answer is not visible to kubectl apply, so the
proof is our released-at stamp and Secret name, which only a host paused for us gets) and
reaches `available` with our Secret; a later `kubectl apply` of the same manifest (an UPDATE)
never brings the pause back.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from dhcpless import keys
from tests.support.waits import eventually
from tests.world.test_sandbox_cli import REPO, hosts, kubeconfig, kubectl

__all__ = ["kubeconfig"]  # the fixture, imported for pytest
NAMESPACE = "metal3-demo"


def _states(config: Path) -> dict[str, str]:
    found = hosts(config)
    return {
        n: (h.get("status") or {}).get("provisioning", {}).get("state") for n, h in found.items()
    }


def _all_available(config: Path) -> dict[str, str] | None:
    """The hosts' states once there are hosts and every one is `available`."""
    states = _states(config)
    return states if states and set(states.values()) == {"available"} else None


def _unpaused_manifest(tmp_path: Path) -> Path:
    docs = [d for d in yaml.safe_load_all((REPO / "examples" / "30-hosts.yaml").read_text()) if d]
    docs = [d for d in docs if d["metadata"]["name"] != "storage-0"]  # refused: a bond (glean)
    for doc in docs:
        doc["metadata"]["annotations"].pop(keys.PAUSED_ANNOTATION)
    path = tmp_path / "hosts.yaml"
    path.write_text(yaml.safe_dump_all(docs))
    return path


@pytest.mark.kubectl
@pytest.mark.e2e
def test_examples_without_the_pause_reach_available(kubeconfig: Path, tmp_path: Path) -> None:
    kubectl(kubeconfig, "apply", "-k", str(REPO / "deploy" / "admission"))
    for name in (
        "00-namespace.yaml",
        "10-ippools.yaml",
        "20-templates.yaml",
        "25-preprovisioning-template.yaml",
    ):
        kubectl(kubeconfig, "apply", "-f", str(REPO / "examples" / name))
    scope = f"{keys.PREPROVISIONING_SCOPE_LABEL}={keys.SCOPE_ENABLED}"
    kubectl(kubeconfig, "label", "namespace", NAMESPACE, scope)
    manifest = _unpaused_manifest(tmp_path)
    kubectl(kubeconfig, "apply", "-f", str(manifest))
    states = eventually(lambda: _all_available(kubeconfig), 45, "every example host available")
    assert states == dict.fromkeys(states, "available") and len(states) == 5
    kubectl(kubeconfig, "apply", "-f", str(manifest))  # an UPDATE: no pause comes back
    for name, obj in hosts(kubeconfig).items():
        annotations = obj["metadata"]["annotations"]
        assert keys.PAUSED_ANNOTATION not in annotations
        assert keys.RELEASED_AT_ANNOTATION in annotations
        assert obj["spec"]["preprovisioningNetworkDataName"] == name + keys.SECRET_NAME_SUFFIX
