"""Switching from `kubectl apply` to `kubectl apply --server-side`: kubectl moves the fields its
client-side apply owned to its server-side manager (k8s.io/client-go `util/csaupgrade`
`UpgradeManagedFieldsPatch`, sent as a JSON patch of `metadata.managedFields`), and the sandbox
takes managed fields a client rewrites, as the real field manager does
(`pkg/util/managedfields/internal/fieldmanager.go` `Update`). So a field the new manifest drops
is removed, on a built-in kind and on a BareMetalHost alike, and no `kubectl-client-side-apply`
manager is left behind; managed fields a client sends empty or malformed are ignored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from kubernetes import client

from dhcpless_sandbox.apiserver.server import SandboxServer

from .kubectl_helpers import Run, get, ok, runner

pytestmark = pytest.mark.kubectl
CSA = "kubectl-client-side-apply"
CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: '1'%s}\n"
BMH = """\
apiVersion: metal3.io/v1alpha1
kind: BareMetalHost
metadata: {name: h}
spec:
  online: true
  bootMACAddress: "00:11:22:33:44:55"%s
"""


@pytest.fixture
def kubectl(sandbox: SandboxServer, tmp_path: Path) -> Run:
    return runner(sandbox, tmp_path)


def _managers(obj: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((m["manager"], m["operation"]) for m in obj["metadata"]["managedFields"])


@pytest.mark.parametrize(
    ("manifest", "extra", "what", "dropped"),
    [
        pytest.param(CONFIGMAP, ", b: '2'", ("configmap", "c"), ("data", "b"), id="configmap"),
        pytest.param(
            BMH, "\n  description: rack 4", ("bmh", "h"), ("spec", "description"), id="bmh"
        ),
    ],
)
def test_moving_to_server_side_apply_drops_what_the_manifest_dropped(
    kubectl: Run, manifest: str, extra: str, what: tuple[str, str], dropped: tuple[str, str]
) -> None:
    ok(kubectl("apply", "-f", "-", stdin=manifest % extra))
    before = get(kubectl, *what, "--show-managed-fields")
    assert (CSA, "Update") in _managers(before) and dropped[1] in before[dropped[0]]
    ok(kubectl("apply", "--server-side", "-f", "-", stdin=manifest % ""))
    after = get(kubectl, *what, "--show-managed-fields")
    assert dropped[1] not in after[dropped[0]]  # the migrated manager no longer sets it
    assert CSA not in [manager for manager, _ in _managers(after)]
    assert ("kubectl", "Apply") in _managers(after)


@pytest.mark.parametrize(
    "given",
    [pytest.param([], id="empty"), pytest.param([{"manager": 7}], id="malformed")],
)
def test_managed_fields_a_client_cannot_mean_are_ignored(
    sandbox: SandboxServer, kubectl: Run, given: list[Any]
) -> None:
    ok(kubectl("apply", "-f", "-", stdin=CONFIGMAP % ", b: '2'"))
    before = _managers(get(kubectl, "configmap", "c", "--show-managed-fields"))
    with sandbox.api_client() as api:
        patch = [{"op": "replace", "path": "/metadata/managedFields", "value": given}]
        client.CoreV1Api(api).patch_namespaced_config_map(
            "c", "default", patch, _content_type="application/json-patch+json"
        )
    assert _managers(get(kubectl, "configmap", "c", "--show-managed-fields")) == before
