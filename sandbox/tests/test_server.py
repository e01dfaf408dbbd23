"""The server around the verbs: discovery, OpenAPI v3, audit, identity, hooks, lifecycle.

Covers: legacy discovery with short names, categories, singular names, verbs, namespaced flag
and the status subresource; /version; the OpenAPI v3 index and per-group-version documents
(the PATCH operation advertising `fieldValidation`, the CRD schema as a component); request
accounting by verb with bearer-token identities; the authorize hook (403 Status) and the fault
hook; `run_sandbox` writing a kubeconfig; stop closing open watches and connections.
"""

from __future__ import annotations

import json
import threading
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml
from kubernetes import watch
from kubernetes.client import ApiClient, ApiException, CoreV1Api, V1ConfigMap, V1ObjectMeta

from dhcpless_sandbox.apiserver.audit import AuditRecord
from dhcpless_sandbox.apiserver.request import RequestInfo
from dhcpless_sandbox.apiserver.run import run_sandbox
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.apiserver.status import ApiError
from tests.support.waits import eventually, seconds

from .helpers import BMH, Custom, create_host, status_of


def _get(server: SandboxServer, path: str) -> Any:
    with urllib.request.urlopen(server.url + path, timeout=seconds(10)) as answer:
        return json.loads(answer.read())


def test_discovery_documents(sandbox: SandboxServer) -> None:
    assert _get(sandbox, "/api")["versions"] == ["v1"]
    groups = {g["name"]: g for g in _get(sandbox, "/apis")["groups"]}
    assert groups["infrastructure.cluster.x-k8s.io"]["preferredVersion"]["version"] == "v1beta2"
    resources = {r["name"]: r for r in _get(sandbox, "/apis/metal3.io/v1alpha1")["resources"]}
    bmh = resources["baremetalhosts"]
    assert (bmh["kind"], bmh["singularName"], bmh["namespaced"]) == (
        "BareMetalHost",
        "baremetalhost",
        True,
    )
    assert bmh["shortNames"] == ["bmh", "bmhost"] and "watch" in bmh["verbs"]
    assert resources["baremetalhosts/status"]["verbs"] == ["get", "patch", "update"]
    core = {r["name"]: r for r in _get(sandbox, "/api/v1")["resources"]}
    assert core["namespaces"]["namespaced"] is False and core["configmaps"]["shortNames"] == ["cm"]
    pools = {r["name"]: r for r in _get(sandbox, "/apis/ipam.metal3.io/v1alpha1")["resources"]}
    assert pools["ippools"]["categories"] == ["cluster-api"]
    assert "ipaddresses/status" not in pools
    assert _get(sandbox, "/version")["minor"] == "37"


def test_openapi_v3(sandbox: SandboxServer) -> None:
    index = _get(sandbox, "/openapi/v3")["paths"]
    assert {"api/v1", "apis/metal3.io/v1alpha1", "apis/apiextensions.k8s.io/v1"} <= set(index)
    doc = _get(sandbox, index["apis/metal3.io/v1alpha1"]["serverRelativeURL"])
    item = doc["paths"]["/apis/metal3.io/v1alpha1/namespaces/{namespace}/baremetalhosts/{name}"]
    patch = item["patch"]
    assert patch["x-kubernetes-group-version-kind"] == {
        "group": "metal3.io",
        "version": "v1alpha1",
        "kind": "BareMetalHost",
    }
    assert "fieldValidation" in [p["name"] for p in patch["parameters"]]
    schema = doc["components"]["schemas"]["io.metal3.v1alpha1.BareMetalHost"]
    assert schema["properties"]["spec"]["properties"]["online"]["type"] == "boolean"


def test_unknown_paths_answer_a_not_found_status(sandbox: SandboxServer) -> None:
    with pytest.raises(urllib.error.HTTPError) as caught:
        _get(sandbox, "/apis/nope.io/v1/things")
    assert json.loads(caught.value.read())["reason"] == "NotFound"
    caught.value.close()


def test_audit_counts_verbs_and_identities(sandbox: SandboxServer) -> None:
    sandbox.add_token("t0ken", "system:serviceaccount:hosts:registrar")
    sandbox.reset_audit()
    client = sandbox.api_client(token="t0ken")
    try:
        co = Custom(client)
        create_host(co)
        co.get_namespaced_custom_object(*BMH, "h1")
        co.list_namespaced_custom_object(*BMH)
        co.patch_namespaced_custom_object_status(*BMH, "h1", {"status": {}})
        co.delete_namespaced_custom_object(*BMH, "h1")
    finally:
        client.close()
    assert sandbox.audit.counts == {"create": 1, "get": 1, "list": 1, "patch": 1, "delete": 1}
    assert sandbox.audit.records[3] == AuditRecord(
        "system:serviceaccount:hosts:registrar",
        "patch",
        "metal3.io",
        "baremetalhosts",
        "status",
        "default",
        "h1",
    )


def test_authorize_hook_forbids(sandbox: SandboxServer, api_client: ApiClient) -> None:
    sandbox.authorize = lambda info: info.verb != "delete"
    create_host(Custom(api_client))
    with pytest.raises(ApiException) as caught:
        Custom(api_client).delete_namespaced_custom_object(*BMH, "h1")
    status = status_of(caught.value)
    assert (status["code"], status["reason"]) == (403, "Forbidden")
    assert (
        'User "admin" cannot delete resource "baremetalhosts" in API group "metal3.io"'
        in status["message"]
    )


def test_fault_hook_answers_instead(sandbox: SandboxServer, api_client: ApiClient) -> None:
    def fault(info: RequestInfo) -> ApiError | None:
        return ApiError(503, "ServiceUnavailable", "injected") if info.verb == "create" else None

    sandbox.fault = fault
    with pytest.raises(ApiException) as caught:
        CoreV1Api(api_client).create_namespaced_config_map(
            "default", V1ConfigMap(metadata=V1ObjectMeta(name="x"))
        )
    assert (caught.value.status, status_of(caught.value)["message"]) == (503, "injected")
    assert CoreV1Api(api_client).list_namespaced_config_map("default").items == []


def test_stop_ends_open_watches() -> None:
    server = SandboxServer().start()
    client = server.api_client()
    seen: list[str] = []

    def follow() -> None:
        stream = watch.Watch().stream(  # type: ignore[no-untyped-call]
            CoreV1Api(client).list_namespace, timeout_seconds=60
        )
        seen.extend(event["object"].metadata.name for event in stream)

    follower = threading.Thread(target=follow)
    follower.start()
    try:
        eventually(lambda: len(seen) >= 3, 10, "the three namespaces watched")
    finally:
        server.stop()
        follower.join(seconds(10))
        client.close()
    assert not follower.is_alive() and sorted(seen) == ["default", "kube-public", "kube-system"]


def test_run_sandbox_writes_a_kubeconfig(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stop = threading.Event()
    config = tmp_path / "sandbox.kubeconfig"
    runner = threading.Thread(target=run_sandbox, args=(0, config, stop))
    runner.start()
    try:
        eventually(config.exists, 10, "the kubeconfig written")
        server = yaml.safe_load(config.read_text())["clusters"][0]["cluster"]["server"]
        with urllib.request.urlopen(
            server + "/apis/metal3.io/v1alpha1", timeout=seconds(10)
        ) as answer:
            assert answer.status == 200
    finally:
        stop.set()
        runner.join(seconds(10))
    assert f"export KUBECONFIG={config.resolve()}" in capsys.readouterr().out
