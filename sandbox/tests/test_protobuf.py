"""Protobuf request bodies, as client-go's typed clients send them since 1.32.

The bodies are built here with the `protobuf` library from our own message definitions, wrapped
in the `k8s\\0` + `runtime.Unknown` envelope, and POSTed raw; the official Python client reads
the result back. Bodies the sandbox cannot decode answer 415 with upstream's message.
"""

from __future__ import annotations

import base64
import http.client
import json
from collections.abc import Callable
from typing import Any, cast

import pytest
from kubernetes.client import ApiClient, CoreV1Api, V1ObjectMeta, V1Secret

from dhcpless_sandbox.apiserver.proto_body import MAGIC, PROTOBUF
from dhcpless_sandbox.apiserver.proto_messages import message_class
from dhcpless_sandbox.apiserver.server import SandboxServer

from .helpers import BMH, JSON, Custom, create_host

ACCEPTED = (
    "the body of the request was in an unknown format - accepted media types include: "
    "application/json, application/yaml, application/vnd.kubernetes.protobuf"
)


def wrap(api_version: str, kind: str, message: Any) -> bytes:
    unknown = message_class("Unknown")()
    unknown.typeMeta.apiVersion, unknown.typeMeta.kind = api_version, kind
    unknown.raw = message.SerializeToString()
    return MAGIC + bytes(unknown.SerializeToString())


def read(api_client: ApiClient, call: str, *args: str) -> JSON:
    """A read through the official client, its JSON answer as is (the client's models are
    typed Optional everywhere)."""
    answer = getattr(CoreV1Api(api_client), call)(*args, _preload_content=False)
    return cast(JSON, json.loads(answer.data))


def send(
    server: SandboxServer, method: str, path: str, body: bytes, content_type: str = PROTOBUF
) -> tuple[int, JSON]:
    host, port = server.address.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        headers = {"Content-Type": content_type, "Accept": f"{PROTOBUF},application/json"}
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def secret_message(name: str) -> Any:
    secret = message_class("Secret")()
    secret.metadata.name = name
    secret.metadata.labels["app"] = "demo"
    secret.data["password"] = b"s3cr\xc3\xa9t"
    secret.stringData["user"] = "admin"
    secret.type = "Opaque"
    return secret


def test_protobuf_secret_is_created_and_read_by_the_official_client(
    sandbox: SandboxServer, api_client: ApiClient
) -> None:
    body = wrap("v1", "Secret", secret_message("bmc"))
    code, created = send(sandbox, "POST", "/api/v1/namespaces/default/secrets", body)
    assert code == 201, created
    secret = read(api_client, "read_namespaced_secret", "bmc", "default")
    assert secret["metadata"]["labels"] == {"app": "demo"}
    assert base64.b64decode(secret["data"]["password"]) == b"s3cr\xc3\xa9t"
    assert base64.b64decode(secret["data"]["user"]) == b"admin"
    assert secret["type"] == "Opaque"


def _namespace(message: Any) -> tuple[str, str, str]:
    message.metadata.name = "site-a"
    return "/api/v1/namespaces", "read_namespace", "site-a"


def _config_map(message: Any) -> tuple[str, str, str]:
    message.metadata.name = "cm"
    message.data["k"] = "v"
    return "/api/v1/namespaces/default/configmaps", "read_namespaced_config_map", "cm"


def _service_account(message: Any) -> tuple[str, str, str]:
    message.metadata.name = "sa"
    message.imagePullSecrets.add(name="pull")
    return "/api/v1/namespaces/default/serviceaccounts", "read_namespaced_service_account", "sa"


def test_official_client_creates_and_a_protobuf_client_reads(
    sandbox: SandboxServer, api_client: ApiClient
) -> None:
    """client-go asks for `protobuf,json`: the sandbox may answer JSON, and does."""
    CoreV1Api(api_client).create_namespaced_secret(
        "default", V1Secret(metadata=V1ObjectMeta(name="from-python"), string_data={"k": "v"})
    )
    code, secret = send(sandbox, "GET", "/api/v1/namespaces/default/secrets/from-python", b"")
    assert (code, base64.b64decode(secret["data"]["k"])) == (200, b"v")


@pytest.mark.parametrize(
    ("kind", "fill", "field", "expected"),
    [
        pytest.param("Namespace", _namespace, "status", {"phase": "Active"}, id="namespace"),
        pytest.param("ConfigMap", _config_map, "data", {"k": "v"}, id="configmap"),
        pytest.param(
            "ServiceAccount",
            _service_account,
            "imagePullSecrets",
            [{"name": "pull"}],
            id="serviceaccount",
        ),
    ],
)
def test_protobuf_core_kinds(
    sandbox: SandboxServer,
    api_client: ApiClient,
    kind: str,
    fill: Callable[[Any], tuple[str, str, str]],
    field: str,
    expected: Any,
) -> None:
    message = message_class(kind)()
    path, call, name = fill(message)
    code, created = send(sandbox, "POST", path, wrap("v1", kind, message))
    assert code == 201, created
    args = (name,) if kind == "Namespace" else (name, "default")
    assert read(api_client, call, *args)[field] == expected


def test_protobuf_events_keep_their_times(sandbox: SandboxServer) -> None:
    event = message_class("EventsV1Event")()
    event.metadata.name = "e1"
    event.eventTime.seconds, event.eventTime.nanos = 1_700_000_000, 123_456_000
    event.regarding.kind, event.regarding.name = "BareMetalHost", "h1"
    event.reason, event.note, event.type, event.action = "Claimed", "ok", "Normal", "Claim"
    event.reportingController, event.reportingInstance = "dhcpless", "dhcpless-1"
    body = wrap("events.k8s.io/v1", "Event", event)
    code, created = send(sandbox, "POST", "/apis/events.k8s.io/v1/namespaces/default/events", body)
    assert code == 201, created
    assert created["eventTime"] == "2023-11-14T22:13:20.123456Z"
    assert created["regarding"] == {"kind": "BareMetalHost", "name": "h1"}


def test_protobuf_delete_options_honour_dry_run(
    sandbox: SandboxServer, api_client: ApiClient
) -> None:
    send(
        sandbox,
        "POST",
        "/api/v1/namespaces/default/secrets",
        wrap("v1", "Secret", secret_message("s")),
    )
    options = message_class("DeleteOptions")()
    options.dryRun.append("All")
    body = wrap("meta.k8s.io/v1", "DeleteOptions", options)
    code, _ = send(sandbox, "DELETE", "/api/v1/namespaces/default/secrets/s", body)
    assert code == 200
    assert read(api_client, "read_namespaced_secret", "s", "default")["metadata"]["name"] == "s"
    options.ClearField("dryRun")
    body = wrap("meta.k8s.io/v1", "DeleteOptions", options)
    assert send(sandbox, "DELETE", "/api/v1/namespaces/default/secrets/s", body)[0] == 200
    listed = read(api_client, "list_namespaced_secret", "default")
    assert "s" not in [s["metadata"]["name"] for s in listed["items"]]


@pytest.mark.parametrize(
    ("path", "body", "content_type"),
    [
        pytest.param(
            "/api/v1/namespaces/default/secrets",
            b"not a protobuf body",
            PROTOBUF,
            id="no-magic-prefix",
        ),
        pytest.param(
            "/api/v1/namespaces/default/secrets",
            MAGIC + b"\xff\xff\xff",
            PROTOBUF,
            id="broken-envelope",
        ),
        pytest.param(
            "/api/v1/namespaces/default/secrets",
            b"",
            PROTOBUF,
            id="unknown-kind-in-envelope",
        ),
        pytest.param(
            "/apis/metal3.io/v1alpha1/namespaces/default/baremetalhosts",
            b"",
            PROTOBUF,
            id="custom-resource",
        ),
        pytest.param(
            "/api/v1/namespaces/default/secrets",
            b"\xa1",
            "application/cbor",
            id="cbor",
        ),
    ],
)
def test_undecodable_bodies_are_415(
    sandbox: SandboxServer, api_client: ApiClient, path: str, body: bytes, content_type: str
) -> None:
    if not body:
        body = wrap("v1", "Pod", message_class("Secret")())
    before = read(api_client, "list_namespaced_secret", "default")["items"]
    code, status = send(sandbox, "POST", path, body, content_type)
    assert (code, status["reason"], status["message"]) == (415, "UnsupportedMediaType", ACCEPTED)
    assert read(api_client, "list_namespaced_secret", "default")["items"] == before


def test_custom_resources_still_take_json(api_client: ApiClient) -> None:
    created = create_host(Custom(api_client))
    assert created["metadata"]["name"] == "h1"
    assert Custom(api_client).get_namespaced_custom_object(*BMH, "h1")["spec"]["online"] is True
