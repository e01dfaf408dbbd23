"""deploy/admission/keep-pause/ evaluated by the sandbox API server (issue 24, finding 5).

An UPDATE that drops our pause from a host that names no network data is refused with the
policy's message, whatever the client: `kubectl annotate ... paused-` (the real kubectl), a
merge patch, a PUT without the annotation (`kubectl replace`, Argo CD `Replace=true`). What
passes: our release patch (it sets `spec.preprovisioningNetworkDataName` in the same request),
a host that names its own Secret, a pause that is not ours, a host opted out by label, a
namespace out of scope, and any update that keeps the pause.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from kubernetes.client import ApiException, CoreV1Api, V1Namespace, V1ObjectMeta

from dhcpless import keys
from dhcpless.chain import patches
from dhcpless.chain.actions import ReleaseHost
from dhcpless.kube import Kube
from dhcpless.refs import HostRef
from dhcpless_sandbox.apiserver.server import SandboxServer

from .helpers import Custom, status_of
from .kubectl_helpers import runner

JSON = dict[str, Any]
ROOT = Path(__file__).resolve().parents[2]
POLICY = ROOT / "deploy" / "admission" / "keep-pause" / "keep-pause-policy.yaml"
NAME = "dhcpless-keep-preprovisioning-pause"
GROUP, VERSION = "admissionregistration.k8s.io", "v1"
SERVED, ELSEWHERE = "served", "elsewhere"
OURS = {keys.PAUSED_ANNOTATION: keys.PREPROVISIONING_PAUSE}
DROP = {"metadata": {"annotations": {keys.PAUSED_ANNOTATION: None}}}


class Hosts:
    """A sandbox with the policy installed, a served and an unserved namespace."""

    def __init__(self, server: SandboxServer) -> None:
        self.client: Any = server.api_client()
        self.custom, core = Custom(self.client), CoreV1Api(self.client)
        scope = {keys.PREPROVISIONING_SCOPE_LABEL: keys.SCOPE_ENABLED}
        for name, labels in ((SERVED, scope), (ELSEWHERE, {})):
            core.create_namespace(V1Namespace(metadata=V1ObjectMeta(name=name, labels=labels)))
        for doc in yaml.safe_load_all(POLICY.read_text()):
            kind = doc["kind"].lower()
            plural = kind[:-1] + "ies" if kind.endswith("y") else kind + "s"
            self.custom.create_cluster_custom_object(GROUP, VERSION, plural, doc)

    def create(self, namespace: str = SERVED, spec: JSON | None = None, **meta: Any) -> JSON:
        body = {
            "apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost",
            "metadata": {"name": "h1", "annotations": OURS, **meta},
            "spec": {"online": True, **(spec or {})},
        }  # fmt: skip
        return self.custom.create_namespaced_custom_object(
            keys.BMO_GROUP, keys.BMO_VERSION, namespace, "baremetalhosts", body
        )

    def patch(self, patch: JSON, namespace: str = SERVED) -> JSON:
        return self.custom.patch_namespaced_custom_object(
            keys.BMO_GROUP, keys.BMO_VERSION, namespace, "baremetalhosts", "h1", patch
        )


@pytest.fixture
def hosts(sandbox: SandboxServer) -> Any:
    found = Hosts(sandbox)
    yield found
    found.client.close()


def _refused(call: Any) -> JSON:
    with pytest.raises(ApiException) as caught:
        call()
    body = status_of(caught.value)
    assert caught.value.status == 403, body
    said = f"ValidatingAdmissionPolicy '{NAME}' with binding '{NAME}' denied request: "
    assert said in body["message"] and "spec.preprovisioningNetworkDataName" in body["message"]
    return body


def test_dropping_the_pause_of_a_waiting_host_is_refused(hosts: Hosts) -> None:
    hosts.create()
    _refused(lambda: hosts.patch(DROP))


def test_a_replace_without_the_pause_is_refused(hosts: Hosts) -> None:
    stored = hosts.create()
    stored["metadata"]["annotations"] = {}
    _refused(
        lambda: hosts.custom.replace_namespaced_custom_object(
            keys.BMO_GROUP, keys.BMO_VERSION, SERVED, "baremetalhosts", "h1", stored
        )
    )


def test_our_release_patch_passes(hosts: Hosts, sandbox: SandboxServer) -> None:
    stored = hosts.create()
    meta = stored["metadata"]
    ref = HostRef(SERVED, "h1", meta["uid"])
    release = ReleaseHost(ref, "h1" + keys.SECRET_NAME_SUFFIX, True, meta["resourceVersion"])
    with sandbox.api_client() as api:
        released = Kube(api).patch_host(SERVED, "h1", patches.release_patch(release))
    assert keys.PAUSED_ANNOTATION not in released.annotations


@pytest.mark.parametrize(
    ("namespace", "spec", "meta", "patch"),
    [
        pytest.param(SERVED, {"preprovisioningNetworkDataName": "mine"}, {}, DROP,
                     id="names-its-own-secret"),
        pytest.param(SERVED, {}, {"annotations": {keys.PAUSED_ANNOTATION: keys.CAPM3_PAUSE}},
                     DROP, id="not-our-pause"),
        pytest.param(SERVED, {}, {"labels": {keys.PREPROVISIONING_SCOPE_LABEL:
                     keys.SCOPE_DISABLED}}, DROP, id="opted-out"),
        pytest.param(ELSEWHERE, {}, {}, DROP, id="namespace-not-served"),
        pytest.param(SERVED, {}, {}, {"metadata": {"labels": {"x": "y"}}}, id="keeps-the-pause"),
        pytest.param(SERVED, {}, {}, {"metadata": {"annotations": {keys.PAUSED_ANNOTATION:
                     keys.CAPM3_PAUSE}}}, id="pause-handed-to-capm3"),
    ],
)  # fmt: skip
def test_what_passes(hosts: Hosts, namespace: str, spec: JSON, meta: JSON, patch: JSON) -> None:
    hosts.create(namespace, spec, **meta)
    assert hosts.patch(patch, namespace)["metadata"]["name"] == "h1"


@pytest.mark.kubectl
def test_kubectl_annotate_paused_minus_is_refused_with_the_message(
    hosts: Hosts, sandbox: SandboxServer, tmp_path: Path
) -> None:
    hosts.create()
    kubectl = runner(sandbox, tmp_path)
    said = kubectl("annotate", "-n", SERVED, "bmh", "h1", f"{keys.PAUSED_ANNOTATION}-")
    assert said.returncode == 1
    assert 'baremetalhosts.metal3.io "h1" is forbidden: ValidatingAdmissionPolicy' in said.stderr
    assert "metal3-dhcpless has written this host's network data" in said.stderr
    still = hosts.patch({"metadata": {"labels": {"checked": "yes"}}})
    assert still["metadata"]["annotations"] == OURS
