"""The verbs, independent of HTTP: get, list, create, update (incl. /status), patch.

Every write runs under the store lock from read to commit, so preconditions (resourceVersion,
name taken, namespace exists) and the write are atomic. Objects are stored as written and
relabelled to the version the caller asked for on the way out (no conversion webhooks).
Deletion, finalizers and garbage collection are in `lifecycle`; a create's steps in `creating`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from dhcpless_sandbox.apiserver import admission, fieldmanager, meta, names, update_rules
from dhcpless_sandbox.apiserver.admission import WriteOptions
from dhcpless_sandbox.apiserver.admission_request import AdmissionRequest, Plugins
from dhcpless_sandbox.apiserver.core_kinds import WRITE_RULES
from dhcpless_sandbox.apiserver.creating import Creating, Written
from dhcpless_sandbox.apiserver.kinds import Registry, ResourceType
from dhcpless_sandbox.apiserver.status import (
    STALE,
    Cause,
    GroupResource,
    bad_request,
    conflict,
    forbidden,
    invalid,
    not_found,
)
from dhcpless_sandbox.apiserver.store import Store

JSON = dict[str, Any]
NAMESPACES = GroupResource("", "namespaces")
Hook = Callable[[JSON, JSON | None], None]


def present(obj: JSON, rt: ResourceType) -> JSON:
    """The stored object relabelled to the version it is read through."""
    return {**obj, "apiVersion": rt.api_version}


class Api(Creating):
    """Semantics over `Store`; `after_write` hooks run after a commit (CRD registration)."""

    def __init__(self, registry: Registry, store: Store) -> None:
        self.registry, self.store = registry, store
        self.rules = dict(WRITE_RULES)
        self.after_write: dict[tuple[str, str], Hook] = {}
        self.written_hooks: list[Hook] = []  # after every commit (the GC: `lifecycle`)
        self.removed_hooks: list[Callable[[tuple[str, str], JSON], None]] = []
        self.plugins = Plugins()

    def get(self, rt: ResourceType, namespace: str, name: str) -> JSON:
        obj = self.store.get(rt.storage_key, namespace if rt.namespaced else "", name)
        if obj is None:
            raise not_found(rt.group_resource, name)
        return present(obj, rt)

    def require_namespace(self, namespace: str, creating: bool) -> None:
        ns = self.store.get(("", "namespaces"), "", namespace)
        if ns is None:
            raise not_found(NAMESPACES, namespace)
        if creating and ns["metadata"].get("deletionTimestamp"):
            why = (
                f"unable to create new content in namespace {namespace} because it is "
                "being terminated"
            )
            raise forbidden(NAMESPACES, namespace, why)

    def update(
        self,
        rt: ResourceType,
        namespace: str,
        name: str,
        body: Any,
        opts: WriteOptions,
        subresource: str = "",
    ) -> Written:
        new = admission.check_identity(body, rt)
        with self.store.lock:
            old = self.existing(rt, namespace, name)
            self.check_name(rt, new, name, namespace)
            given = new["metadata"].get("resourceVersion")
            if not given and rt.group:
                cause = Cause(
                    "FieldValueInvalid",
                    "Invalid value: 0: must be specified for an update",
                    "metadata.resourceVersion",
                )
                raise invalid(rt.kind, rt.group, name, [cause])
            return self.replace(rt, old, new, opts, subresource)

    def patch(
        self,
        rt: ResourceType,
        namespace: str,
        name: str,
        content_type: str,
        patch: Any,
        opts: WriteOptions,
        subresource: str = "",
    ) -> Written:
        with self.store.lock:
            old = self.existing(rt, namespace, name)
            current = present(copy.deepcopy(old), rt)
            new = update_rules.apply_patch(content_type, current, patch, custom=rt.custom)
            new = admission.check_identity(new, rt)
            self.check_name(rt, new, name, namespace)
            return self.replace(rt, old, new, opts, subresource)

    def existing(self, rt: ResourceType, namespace: str, name: str) -> JSON:
        old = self.store.get(rt.storage_key, namespace if rt.namespaced else "", name)
        if old is None:
            raise not_found(rt.group_resource, name)
        return old

    def check_name(self, rt: ResourceType, new: JSON, name: str, namespace: str) -> None:
        given = new["metadata"].get("name")
        if given and given != name:
            raise bad_request(
                f"the name of the object ({given}) does not match the name on the URL ({name})"
            )
        given_ns = new["metadata"].get("namespace")
        if rt.namespaced and given_ns not in (None, "", namespace):
            raise bad_request(
                "the namespace of the provided object does not match the "
                "namespace sent on the request"
            )
        new["metadata"]["name"] = name

    def replace(
        self, rt: ResourceType, old: JSON, new: JSON, opts: WriteOptions, subresource: str
    ) -> Written:
        given = new["metadata"].get("resourceVersion")
        if given and given != old["metadata"]["resourceVersion"]:
            raise conflict(rt.group_resource, new["metadata"]["name"], STALE)
        new = update_rules.scope_to_subresource(new, old, rt, subresource)
        meta.carry_over(new, old, rt)
        if rt.namespaced:
            new["metadata"]["namespace"] = old["metadata"]["namespace"]
        namespace = old["metadata"].get("namespace", "")
        request = AdmissionRequest(rt, namespace, new, old, subresource, opts.dry_run)
        warnings = self._admit(request, opts)
        self._rule(rt, new, old)
        update_rules.check_finalizers(rt, new, old)
        new["metadata"]["resourceVersion"] = old["metadata"]["resourceVersion"]
        fieldmanager.record(rt, new, old, opts, subresource)
        if new == present(old, rt) or opts.dry_run:
            return Written(present(new, rt), warnings)
        if new["metadata"].get("deletionTimestamp") and not new["metadata"].get("finalizers"):
            return Written(present(self.remove(rt, new), rt), warnings)
        return Written(self._commit(rt, new, old, opts), warnings)

    def _admit(self, request: AdmissionRequest, opts: WriteOptions) -> list[str]:
        """Mutating plugins, then prune/default/schema, then validating plugins (real order)."""
        self.plugins.mutate(request)
        warnings = admission.admit(request.obj, request.rt, opts)
        return warnings + self.plugins.validate(request)

    def _rule(self, rt: ResourceType, new: JSON, old: JSON | None) -> None:
        if causes := names.label_causes(new["metadata"].get("labels")):
            raise invalid(rt.kind, rt.group, new["metadata"]["name"], causes)
        if rule := self.rules.get(rt.storage_key):
            rule(new, old)

    def _commit(self, rt: ResourceType, obj: JSON, old: JSON | None, opts: WriteOptions) -> JSON:
        if opts.dry_run:
            return present(obj, rt)
        stored = self.store.put(rt.storage_key, obj, old)
        for hook in filter(None, (self.after_write.get(rt.storage_key), *self.written_hooks)):
            hook(stored, old)
        return present(stored, rt)

    def remove(self, rt: ResourceType, obj: JSON) -> JSON:
        """Delete for good, then let GC and namespace/CRD cleanup react."""
        gone = self.store.remove(rt.storage_key, obj)
        for hook in self.removed_hooks:
            hook(rt.storage_key, gone)
        return gone
