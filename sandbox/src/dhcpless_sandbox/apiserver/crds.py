"""CustomResourceDefinitions: a stored CRD makes its kinds served, immediately.

On write the server fills the CRD's status the way apiextensions' controllers do once names are
accepted (conditions NamesAccepted and Established True, acceptedNames, storedVersions), so
`kubectl wait --for condition=established` returns at once. Deleting a CRD first deletes every
object of it (finalizer `customresourcecleanup.apiextensions.k8s.io`), then stops serving it.
"""

from __future__ import annotations

import copy
from typing import Any

from dhcpless_sandbox.apiserver import lifecycle, meta
from dhcpless_sandbox.apiserver.api import Api
from dhcpless_sandbox.apiserver.core_kinds import root_schema, schemas
from dhcpless_sandbox.apiserver.kinds import PrinterColumn, ResourceType
from dhcpless_sandbox.apiserver.status import Cause, invalid
from dhcpless_sandbox.apiserver.store import StorageKey

JSON = dict[str, Any]
GROUP = "apiextensions.k8s.io"
KEY: StorageKey = (GROUP, "customresourcedefinitions")
CLEANUP = "customresourcecleanup.apiextensions.k8s.io"
PRESERVE: JSON = {"type": "object", "x-kubernetes-preserve-unknown-fields": True}


def crd_type() -> ResourceType:
    return ResourceType(
        group=GROUP,
        version="v1",
        kind="CustomResourceDefinition",
        plural="customresourcedefinitions",
        singular="customresourcedefinition",
        namespaced=False,
        short_names=("crd", "crds"),
        categories=("api-extensions",),
        status_subresource=True,
        schema=root_schema(schemas()["CustomResourceDefinition"]),
    )


def _columns(version: JSON) -> tuple[PrinterColumn, ...]:
    return tuple(
        PrinterColumn(
            c["name"],
            c.get("type", "string"),
            c["jsonPath"],
            c.get("description", ""),
            int(c.get("priority", 0)),
            c.get("format", ""),
        )
        for c in version.get("additionalPrinterColumns") or []
    )


def _schema(version: JSON) -> JSON:
    body = ((version.get("schema") or {}).get("openAPIV3Schema")) or PRESERVE
    props = {k: v for k, v in (body.get("properties") or {}).items() if k != "metadata"}
    return root_schema({**body, "properties": props})


def resource_types(crd: JSON) -> list[ResourceType]:
    """One ResourceType per served version of `crd`."""
    spec, names = crd["spec"], crd["spec"]["names"]
    storage = next((v["name"] for v in spec["versions"] if v.get("storage")), "")
    return [
        ResourceType(
            group=spec["group"],
            version=v["name"],
            kind=names["kind"],
            plural=names["plural"],
            singular=names.get("singular") or names["kind"].lower(),
            namespaced=spec.get("scope") == "Namespaced",
            short_names=tuple(names.get("shortNames") or ()),
            categories=tuple(names.get("categories") or ()),
            status_subresource="status" in (v.get("subresources") or {}),
            schema=_schema(v),
            columns=_columns(v),
            storage_version=storage,
            selectable_fields=tuple(
                f["jsonPath"].lstrip(".") for f in v.get("selectableFields") or []
            ),
        )
        for v in spec["versions"]
        if v.get("served")
    ]


def _check(crd: JSON) -> None:
    spec = crd.get("spec") or {}
    names, versions = spec.get("names") or {}, spec.get("versions") or []
    problems = [
        Cause("FieldValueRequired", "Required value", f"spec.{p}")
        for p, v in (
            ("group", spec.get("group")),
            ("names.plural", names.get("plural")),
            ("names.kind", names.get("kind")),
            ("versions", versions),
        )
        if not v
    ]
    if versions and sum(1 for v in versions if v.get("storage")) != 1:
        problems.append(
            Cause(
                "FieldValueInvalid",
                "Invalid value: must have exactly one version marked as storage version",
                "spec.versions",
            )
        )
    expected = f"{names.get('plural')}.{spec.get('group')}"
    if not problems and crd["metadata"]["name"] != expected:
        problems.append(
            Cause(
                "FieldValueInvalid",
                f'Invalid value: "{crd["metadata"]["name"]}": '
                f'must be spec.names.plural+"."+spec.group',
                "metadata.name",
            )
        )
    if problems:
        raise invalid("CustomResourceDefinition", GROUP, crd["metadata"]["name"], problems)


def _condition(kind: str, reason: str, message: str) -> JSON:
    return {
        "type": kind,
        "status": "True",
        "reason": reason,
        "message": message,
        "lastTransitionTime": meta.now(),
    }


def _status_rule(new: JSON, old: JSON | None) -> None:
    """What apiextensions' naming and establishing controllers would write."""
    _check(new)
    spec = new["spec"]
    if old is None:
        new["metadata"]["finalizers"] = [*new["metadata"].get("finalizers", []), CLEANUP]
    storage = next(v["name"] for v in spec["versions"] if v.get("storage"))
    names = spec["names"]
    accepted = {
        **names,
        "singular": names.get("singular") or names["kind"].lower(),
        "listKind": names.get("listKind") or f"{names['kind']}List",
    }
    stored = list((old or {}).get("status", {}).get("storedVersions") or [])
    new["status"] = {
        "acceptedNames": accepted,
        "conditions": copy.deepcopy((old or {}).get("status", {}).get("conditions"))
        or [
            _condition("NamesAccepted", "NoConflicts", "no conflicts found"),
            _condition(
                "Established", "InitialNamesAccepted", "the initial names have been accepted"
            ),
        ],
        "storedVersions": [*stored, storage] if storage not in stored else stored,
    }


def install(api: Api) -> None:
    """Serve CRDs on `api`: the kind itself, its write rule and its reactions."""
    api.registry.add(crd_type())
    api.rules[KEY] = _status_rule

    def after_write(crd: JSON, old: JSON | None) -> None:
        if old is not None:
            api.registry.remove_resource(old["spec"]["group"], old["spec"]["names"]["plural"])
        for rt in resource_types(crd):
            api.registry.add(rt)
        if crd["metadata"].get("deletionTimestamp"):
            _cleanup(api, crd)

    def removed(key: StorageKey, gone: JSON) -> None:
        if key == KEY:
            api.registry.remove_resource(gone["spec"]["group"], gone["spec"]["names"]["plural"])
        elif (crd := _crd_of(api, key)) is not None and crd["metadata"].get("deletionTimestamp"):
            _release(api, crd)

    api.after_write[KEY] = after_write
    api.removed_hooks.append(removed)


def _crd_of(api: Api, key: StorageKey) -> JSON | None:
    return api.store.get(KEY, "", f"{key[1]}.{key[0]}") if key[0] else None


def _cleanup(api: Api, crd: JSON) -> None:
    """Delete every object of a terminating CRD; release the CRD once none is left."""
    key = (crd["spec"]["group"], crd["spec"]["names"]["plural"])
    if (rt := lifecycle.type_for(api, key)) is not None:
        for obj in api.store.listing(key, None):
            lifecycle.terminate(api, rt, obj, lifecycle.Propagation.BACKGROUND)
    _release(api, crd)


def _release(api: Api, crd: JSON) -> None:
    key = (crd["spec"]["group"], crd["spec"]["names"]["plural"])
    current = api.store.get(KEY, "", crd["metadata"]["name"])
    if current is None or api.store.listing(key, None):
        return
    new = copy.deepcopy(current)
    finalizers = [f for f in new["metadata"].get("finalizers") or [] if f != CLEANUP]
    new["metadata"]["finalizers"] = finalizers
    if finalizers:
        api.store.put(KEY, new, current)
    else:
        del new["metadata"]["finalizers"]
        api.remove(crd_type(), new)
