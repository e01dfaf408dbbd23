"""Server-side apply as a verb: PATCH `application/apply-patch+yaml` creates or merges.

k8s.io/apiserver `pkg/endpoints/handlers/patch.go` (`applyPatcher`, with `forceAllowCreate`
for apply): a missing object is created from the configuration; otherwise conflicts are
checked (`fieldmanager.conflicts`), the configuration is merged by schema (`apply_merge`) and
the result goes through the same update path as every other write, where the applier's
ownership is recorded.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from dhcpless_sandbox.apiserver import admission, apply_merge, fieldmanager
from dhcpless_sandbox.apiserver.api import Api, present
from dhcpless_sandbox.apiserver.creating import Written
from dhcpless_sandbox.apiserver.fieldmanager import ManagedOptions
from dhcpless_sandbox.apiserver.kinds import ResourceType


def apply(
    api: Api, rt: ResourceType, namespace: str, name: str, config: Any, opts: ManagedOptions
) -> Written:
    """Create or merge `config` for `opts.field_manager`, owning exactly its fields."""
    body = admission.check_identity(config, rt)
    api.check_name(rt, body, name, namespace)
    mine = replace(opts, applied=frozenset(fieldmanager.leaves_of(rt, body, opts.subresource)))
    with api.store.lock:
        old = api.store.get(rt.storage_key, namespace if rt.namespaced else "", name)
        if old is None:
            return api.create(rt, namespace, body, mine)
        live = present(copy.deepcopy(old), rt)
        causes = fieldmanager.conflicts(rt, live, body, opts.field_manager, opts.subresource)
        if causes and not opts.force:
            raise fieldmanager.conflict_error(causes)
        new = apply_merge.apply(rt, live, body, opts.field_manager, opts.subresource)
        new["metadata"]["resourceVersion"] = old["metadata"]["resourceVersion"]
        return api.replace(rt, old, new, mine, opts.subresource)
