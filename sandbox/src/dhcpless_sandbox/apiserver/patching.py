"""The three PATCH flavours the sandbox accepts, as pure functions on JSON values.

* JSON merge patch (RFC 7386): objects merge, `null` deletes, lists replace.
* JSON patch (RFC 6902) including `test`; a failed op is 422 as in apiserver's `applyJSPatch`.
* Strategic merge patch: merge patch plus the few list-merge keys and `$` directives that core
  kinds and kubectl's client-side apply use. Custom resources get plain merge, as upstream.
"""

from __future__ import annotations

import copy
from enum import StrEnum
from typing import Any

from dhcpless_sandbox.apiserver.status import ApiError, Cause, bad_request


class PatchType(StrEnum):
    JSON = "application/json-patch+json"
    MERGE = "application/merge-patch+json"
    STRATEGIC = "application/strategic-merge-patch+json"
    APPLY = "application/apply-patch+yaml"


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386: returns a new value; `target` is never changed."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


def _rejected(message: str) -> ApiError:
    """apiserver answers a patch that cannot apply with a generic 422 plus the reason."""
    general = "the server rejected our request due to an error in our request"
    return ApiError(422, "Invalid", general, causes=(Cause("UnexpectedServerResponse", message),))


def _tokens(pointer: str) -> list[str]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise _rejected(f"JSON pointer {pointer!r} must start with '/'")
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def _index(container: list[Any], token: str, op: str, allow_end: bool) -> int:
    if token == "-" and allow_end:
        return len(container)
    if not token.isdigit() or int(token) > len(container) - (0 if allow_end else 1):
        raise _rejected(f"{op} operation does not apply: index {token!r} out of range")
    return int(token)


def _parent(doc: Any, pointer: str, op: str) -> tuple[Any, str]:
    tokens = _tokens(pointer)
    if not tokens:
        raise _rejected(f"{op} operation does not apply: the document root is not patchable")
    node = doc
    for token in tokens[:-1]:
        node = _child(node, token, op, pointer)
    return node, tokens[-1]


def _child(node: Any, token: str, op: str, pointer: str) -> Any:
    if isinstance(node, dict) and token in node:
        return node[token]
    if isinstance(node, list):
        return node[_index(node, token, op, allow_end=False)]
    raise _rejected(f"{op} operation does not apply: doc is missing path: {pointer!r}")


def _get(doc: Any, pointer: str, op: str) -> Any:
    node = doc
    for token in _tokens(pointer):
        node = _child(node, token, op, pointer)
    return node


def _add(doc: Any, path: str, value: Any) -> None:
    parent, last = _parent(doc, path, "add")
    if isinstance(parent, list):
        parent.insert(_index(parent, last, "add", allow_end=True), copy.deepcopy(value))
    elif isinstance(parent, dict):
        parent[last] = copy.deepcopy(value)
    else:
        raise _rejected(f"add operation does not apply: doc is missing path: {path!r}")


def _remove(doc: Any, path: str) -> Any:
    parent, last = _parent(doc, path, "remove")
    if isinstance(parent, list):
        return parent.pop(_index(parent, last, "remove", allow_end=False))
    if isinstance(parent, dict) and last in parent:
        return parent.pop(last)
    raise _rejected(f"remove operation does not apply: doc is missing path: {path!r}")


def _apply_op(doc: Any, op: dict[str, Any]) -> None:
    kind, path = op.get("op"), op.get("path")
    if not isinstance(path, str):
        raise bad_request(f"invalid JSON patch operation (missing path): {op}")
    if kind in ("add", "replace", "test") and "value" not in op:
        raise bad_request(f"invalid JSON patch operation (missing value): {op}")
    match kind:
        case "add":
            _add(doc, path, op["value"])
        case "remove":
            _remove(doc, path)
        case "replace":
            _remove(doc, path)
            _add(doc, path, op["value"])
        case "move":
            _add(doc, path, _remove(doc, str(op.get("from"))))
        case "copy":
            _add(doc, path, _get(doc, str(op.get("from")), "copy"))
        case "test":
            if _get(doc, path, "test") != op["value"]:
                raise _rejected(f"testing value {path} failed: test failed")
        case _:
            raise bad_request(f"Unexpected kind: {kind}")


def json_patch(target: dict[str, Any], ops: Any) -> dict[str, Any]:
    """RFC 6902, all-or-nothing: works on a copy so a failing op changes nothing."""
    if not isinstance(ops, list) or not all(isinstance(o, dict) for o in ops):
        raise bad_request("json: cannot unmarshal object into Go value of type jsonpatch.Patch")
    doc = copy.deepcopy(target)
    for op in ops:
        _apply_op(doc, op)
    if not isinstance(doc, dict):
        raise _rejected("the patched document is not an object")
    return doc
