"""Shared helpers for the sandbox API server tests: a typed client facade, objects, errors."""

from __future__ import annotations

import http.client
import json
from collections.abc import Callable
from typing import Any, cast

from kubernetes import watch
from kubernetes.client import ApiException, CustomObjectsApi, V1ObjectMeta

JSON = dict[str, Any]
BMH = ("metal3.io", "v1alpha1", "default", "baremetalhosts")


class Custom(CustomObjectsApi):
    """CustomObjectsApi whose calls are typed as returning JSON objects (they do)."""

    def create_namespaced_custom_object(self, *args: Any, **kw: Any) -> JSON:
        return cast(JSON, super().create_namespaced_custom_object(*args, **kw))

    def get_namespaced_custom_object(self, *args: Any, **kw: Any) -> JSON:
        return cast(JSON, super().get_namespaced_custom_object(*args, **kw))

    def list_namespaced_custom_object(self, *args: Any, **kw: Any) -> JSON:
        return cast(JSON, super().list_namespaced_custom_object(*args, **kw))

    def list_cluster_custom_object(self, *args: Any, **kw: Any) -> JSON:
        return cast(JSON, super().list_cluster_custom_object(*args, **kw))

    def patch_namespaced_custom_object(self, *args: Any, **kw: Any) -> JSON:
        return cast(JSON, super().patch_namespaced_custom_object(*args, **kw))

    def patch_namespaced_custom_object_status(self, *args: Any, **kw: Any) -> JSON:
        return cast(JSON, super().patch_namespaced_custom_object_status(*args, **kw))

    def replace_namespaced_custom_object(self, *args: Any, **kw: Any) -> JSON:
        return cast(JSON, super().replace_namespaced_custom_object(*args, **kw))

    def delete_namespaced_custom_object(self, *args: Any, **kw: Any) -> JSON:
        return cast(JSON, super().delete_namespaced_custom_object(*args, **kw))


def meta(name: str, **extra: Any) -> V1ObjectMeta:
    return V1ObjectMeta(name=name, **extra)


def host(name: str = "h1", **extra: Any) -> JSON:
    body: JSON = {
        "apiVersion": "metal3.io/v1alpha1",
        "kind": "BareMetalHost",
        "metadata": {"name": name},
        "spec": {"online": True},
    }
    body.update(extra)
    return body


def create_host(co: Custom, name: str = "h1", **extra: Any) -> JSON:
    return co.create_namespaced_custom_object(*BMH, host(name, **extra))


def get_host(co: Custom, name: str = "h1") -> JSON:
    return co.get_namespaced_custom_object(*BMH, name)


def status_of(error: ApiException) -> JSON:
    """The Status object the server answered with."""
    return cast(JSON, json.loads(error.body or "{}"))


def watch_events(list_call: Callable[..., Any], *args: Any, **kw: Any) -> list[JSON]:
    """Every event of a watch that ends by `timeout_seconds` (which the caller passes)."""
    stream = watch.Watch().stream(list_call, *args, **kw)  # type: ignore[no-untyped-call]
    return list(cast("list[JSON]", stream))


def raw_request(
    server: Any, method: str, path: str, body: bytes = b"", **headers: str
) -> tuple[int, str | None, JSON]:
    """One request on its own connection: (status, Transfer-Encoding, the JSON answer)."""
    host_, port = server.address.rsplit(":", 1)
    connection = http.client.HTTPConnection(host_, int(port), timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
        return answer.status, answer.getheader("Transfer-Encoding"), json.loads(answer.read())
    finally:
        connection.close()
