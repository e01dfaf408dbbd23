"""A create, step by step in the real API server's order.

k8s.io/apiserver `pkg/endpoints/handlers/create.go` (`createHandler`) and
`pkg/registry/generic/registry/store.go` (`Store.Create`, `rest.BeforeCreate`):

1. the body is decoded: unknown fields dropped (or, strict, refused), pruned and defaulted, and
   null metadata fields coerced away (`admission.check_identity`: apiextensions-apiserver
   `customresource_handler.go` runs `schema/objectmeta/coerce.go` `Coerce`, whose round trip
   through `metav1.ObjectMeta` drops `annotations: null`; a built-in's Go decoding does too);
2. managedFields are recorded for the object as sent (`FieldManager.UpdateNoErrors`), before
   admission: what a mutating policy adds belongs to no manager;
3. mutating admission, with the name as sent: empty under `generateName` (the attributes name
   the object by `metadata.name`);
4. `BeforeCreate` resolves `generateName`; the schema is validated, then validating admission
   sees the name the object will have.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from dhcpless_sandbox.apiserver import admission, fieldmanager, meta
from dhcpless_sandbox.apiserver.admission import WriteOptions
from dhcpless_sandbox.apiserver.admission_request import AdmissionRequest, Plugins
from dhcpless_sandbox.apiserver.kinds import ResourceType
from dhcpless_sandbox.apiserver.status import already_exists, bad_request
from dhcpless_sandbox.apiserver.store import Store

JSON = dict[str, Any]


@dataclass
class Written:
    """A write's result: the object as the client sees it, plus warnings for the response."""

    object: JSON
    warnings: list[str] = field(default_factory=list)
    created: bool = False


class _Verbs(Protocol):
    store: Store
    plugins: Plugins

    def require_namespace(self, namespace: str, creating: bool) -> None: ...
    def _rule(self, rt: ResourceType, new: JSON, old: JSON | None) -> None: ...
    def _commit(
        self, rt: ResourceType, obj: JSON, old: JSON | None, opts: WriteOptions
    ) -> JSON: ...


class Creating:
    """`Api.create` (a mixin: `Api` has the store, the plugins and the commit)."""

    def create(
        self: _Verbs, rt: ResourceType, namespace: str, body: Any, opts: WriteOptions
    ) -> Written:
        obj = admission.check_identity(body, rt)
        given_ns = obj["metadata"].get("namespace")
        if rt.namespaced and given_ns not in (None, "", namespace):
            raise bad_request(
                "the namespace of the provided object does not match the "
                "namespace sent on the request"
            )
        if rt.status_subresource and rt.group:
            obj.pop("status", None)
        with self.store.lock:
            if rt.namespaced:
                self.require_namespace(namespace, creating=True)
            warnings = admission.decode(obj, rt, opts)
            obj["metadata"].pop("managedFields", None)
            fieldmanager.record(rt, obj, None, opts, "")  # 2: as sent, before admission
            request = AdmissionRequest(rt, namespace, obj, None, "", opts.dry_run)
            self.plugins.mutate(request)
            name = meta.name_for_create(rt, obj["metadata"])  # 4: after mutating admission
            obj["metadata"]["name"] = name
            admission.validate(obj, rt)
            warnings += self.plugins.validate(request)
            self._rule(rt, obj, None)
            managed = obj["metadata"].get("managedFields")
            meta.stamp_new(obj, rt, name, namespace)
            if managed:
                obj["metadata"]["managedFields"] = managed
            if self.store.get(rt.storage_key, namespace if rt.namespaced else "", name):
                raise already_exists(rt.group_resource, name)
            return Written(self._commit(rt, obj, None, opts), warnings, created=True)
