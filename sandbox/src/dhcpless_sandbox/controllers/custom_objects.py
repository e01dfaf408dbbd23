"""Thin helpers over the official client for the controllers' reads and writes.

Exists because the IPAM and BMO stand-ins both need the same few calls with the same
semantics: a read that turns 404 into None, a write that ignores 404 (the object is already
gone), and finalizer edits guarded by resourceVersion (a conflict fails the reconcile, which
the work queue retries with backoff, as controller-runtime does).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from kubernetes import client
from kubernetes.client.exceptions import ApiException

T = TypeVar("T")
Obj = dict[str, Any]


def none_if_missing(call: Callable[[], T]) -> T | None:
    """The call's result, or None when the API answers 404; other errors propagate."""
    try:
        return call()
    except ApiException as error:
        if error.status == 404:
            return None
        raise


def ignore_missing(call: Callable[[], object]) -> None:
    """Run a write whose target may already be gone."""
    none_if_missing(call)


class CustomObjects:
    """One API group/version through `CustomObjectsApi`, as plain dicts."""

    def __init__(self, api: client.ApiClient, group: str, version: str) -> None:
        self._api = client.CustomObjectsApi(api)
        self._gv = (group, version)

    def get(self, plural: str, namespace: str, name: str) -> Obj | None:
        get = self._api.get_namespaced_custom_object
        return cast(Obj | None, none_if_missing(lambda: get(*self._gv, namespace, plural, name)))

    def list_items(self, plural: str, namespace: str, label_selector: str = "") -> list[Obj]:
        body = self._api.list_namespaced_custom_object(
            *self._gv, namespace, plural, label_selector=label_selector
        )
        return list(cast(Obj, body).get("items") or [])

    def create(self, plural: str, namespace: str, body: Obj) -> None:
        self._api.create_namespaced_custom_object(*self._gv, namespace, plural, body)

    def delete(self, plural: str, namespace: str, name: str) -> None:
        self._api.delete_namespaced_custom_object(*self._gv, namespace, plural, name)

    def patch(self, plural: str, namespace: str, name: str, body: Obj) -> None:
        """A merge patch (`kubectl patch --type merge`)."""
        self._api.patch_namespaced_custom_object(*self._gv, namespace, plural, name, body)

    def patch_status(self, plural: str, namespace: str, name: str, status: Any) -> None:
        patch = {"status": status}
        self._api.patch_namespaced_custom_object_status(*self._gv, namespace, plural, name, patch)

    def ensure_finalizer(self, plural: str, obj: Obj, finalizer: str) -> Obj:
        """The object with `finalizer` added (patched only when missing)."""
        finalizers = list(obj["metadata"].get("finalizers") or [])
        if finalizer in finalizers:
            return obj
        return self._set_finalizers(plural, obj, [*finalizers, finalizer])

    def remove_finalizer(self, plural: str, obj: Obj, finalizer: str) -> None:
        finalizers = list(obj["metadata"].get("finalizers") or [])
        if finalizer in finalizers:
            self._set_finalizers(plural, obj, [f for f in finalizers if f != finalizer])

    def _set_finalizers(self, plural: str, obj: Obj, finalizers: list[str]) -> Obj:
        meta = obj["metadata"]
        patch = {"metadata": {"finalizers": finalizers, "resourceVersion": meta["resourceVersion"]}}
        updated = self._api.patch_namespaced_custom_object(
            *self._gv, meta["namespace"], plural, meta["name"], patch
        )
        return cast(Obj, updated)
