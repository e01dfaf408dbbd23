"""Read verbs: get, list (selectors, limit/continue, Tables) and watch."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from typing import Any

from dhcpless_sandbox.apiserver import tables
from dhcpless_sandbox.apiserver.api import Api
from dhcpless_sandbox.apiserver.call import DEFAULT_WATCH_SECONDS, Call, Response
from dhcpless_sandbox.apiserver.selectors import (
    Op,
    fields_match,
    labels_match,
    parse_fields,
    parse_labels,
)
from dhcpless_sandbox.apiserver.status import Cause, bad_request, invalid
from dhcpless_sandbox.apiserver.tables import lookup
from dhcpless_sandbox.apiserver.watching import WatchRequest, stream

JSON = dict[str, Any]
FIELD_PATHS = {"source": ".source.component"}
"""Field labels whose value is not at their own path (core/v1 Event `source`)."""


def int_param(call: Call, key: str) -> int:
    """Query integers decode like apimachinery's `Convert_Slice_string_To_int64`; a bad one is
    a 400 (k8s.io/apiserver `handlers/get.go`, `ListResource`: DecodeParameters -> BadRequest)
    answered before any list or watch starts."""
    raw = call.q.get(key) or ""
    if raw and not re.fullmatch(r"[-+]?\d+", raw):
        raise bad_request(f'strconv.ParseInt: parsing "{raw}": invalid syntax')
    return int(raw or 0)


def resource_version(call: Call) -> str:
    """storage `APIObjectVersioner.ParseResourceVersion`: not a number is 422 Invalid, through
    `InterpretWatchError` (k8s.io/apiserver `pkg/storage/errors/storage.go`)."""
    raw = call.q.get("resourceVersion", "")
    if raw and not raw.isdigit():
        why = f'Invalid value: "{raw}": strconv.ParseUint: parsing "{raw}": invalid syntax'
        cause = Cause("FieldValueInvalid", why, "resourceVersion")
        raise invalid(call.rt.plural, call.rt.group, "", [cause])
    return raw


def matcher(call: Call) -> Callable[[JSON], bool]:
    labels = parse_labels(call.q.get("labelSelector", ""))
    wanted = parse_fields(call.q.get("fieldSelector", ""), call.rt.field_labels)

    def matches(obj: JSON) -> bool:
        meta = obj["metadata"]
        values = {f.path: str(lookup(obj, FIELD_PATHS.get(f.path, f.path)) or "") for f in wanted}
        return labels_match(labels, meta.get("labels") or {}) and fields_match(wanted, values)

    return matches


def _equalities(call: Call) -> list[tuple[str, str]]:
    """The selector's `key=value` requirements: the store lists only objects that may carry
    them (`label_index`), and `matcher` still checks every one it lists."""
    required = parse_labels(call.q.get("labelSelector", ""))
    return [(r.key, next(iter(r.values))) for r in required if r.op is Op.EQUALS]


def _render(call: Call) -> Callable[[JSON], JSON]:
    if not tables.wants_table(call.accept):
        return lambda obj: obj
    include = call.q.get("includeObject", "Metadata")
    return lambda obj: tables.table(call.rt, [obj], {}, include)


def get(api: Api, call: Call) -> Response:
    obj = api.get(call.rt, call.namespace, call.info.name)
    return Response(200, _render(call)(obj))


def _page(call: Call, items: list[JSON], rv: str) -> tuple[list[JSON], JSON]:
    meta: JSON = {"resourceVersion": rv}
    start = call.q.get("continue", "")
    if start:
        try:
            after = json.loads(base64.urlsafe_b64decode(start))["after"]
        except (ValueError, KeyError, TypeError):
            raise bad_request("continue key is not valid") from None
        items = [o for o in items if _position(o) > tuple(after)]
    limit = int_param(call, "limit")
    if 0 < limit < len(items):
        token = json.dumps({"after": list(_position(items[limit - 1]))}).encode()
        meta |= {
            "continue": base64.urlsafe_b64encode(token).decode(),
            "remainingItemCount": len(items) - limit,
        }
        items = items[:limit]
    return items, meta


def _position(obj: JSON) -> tuple[str, str]:
    return (obj["metadata"].get("namespace", ""), obj["metadata"]["name"])


def list_(api: Api, call: Call) -> Response:
    int_param(call, "limit")
    resource_version(call)
    matches, ns = matcher(call), call.info.namespace or None
    with api.store.lock:
        rv = str(api.store.resource_version)
        listed = api.store.listing(call.rt.storage_key, ns, _equalities(call))
        objs = [o for o in listed if matches(o)]
    items, meta = _page(call, [{**o, "apiVersion": call.rt.api_version} for o in objs], rv)
    if tables.wants_table(call.accept):
        return Response(
            200, tables.table(call.rt, items, meta, call.q.get("includeObject", "Metadata"))
        )
    return Response(
        200,
        {
            "kind": f"{call.rt.kind}List",
            "apiVersion": call.rt.api_version,
            "metadata": meta,
            "items": items,
        },
    )


def watch(api: Api, call: Call) -> Response:
    timeout = float(int_param(call, "timeoutSeconds") or DEFAULT_WATCH_SECONDS)
    req = WatchRequest(
        call.rt,
        call.info.namespace or None,
        matcher(call),
        resource_version(call),
        timeout,
        _flag(call, "sendInitialEvents"),
        _render(call),
        bookmarks=_flag(call, "allowWatchBookmarks"),
    )
    return Response(200, stream=stream(api.store, req, call.closed))


def _flag(call: Call, key: str) -> bool:
    """A boolean query parameter as Go's `strconv.ParseBool` reads it (the python client
    sends `True`)."""
    return call.q.get(key, "") in ("1", "t", "T", "true", "TRUE", "True")
