"""The two requests a watch cache is made of: one LIST, then one streaming WATCH from its
resourceVersion, through the real client's request path (`kube.transport.core`), so authentication,
TLS and `ApiException` are the client's own.

Modelled on client-go's `tools/cache/reflector.go`: `Reflector.list` takes the collection's
`metadata.resourceVersion`, `Reflector.watch` opens the watch from the last resourceVersion
seen with `allowWatchBookmarks=true` and a `timeoutSeconds`, and `handleAnyWatch` reads
ADDED / MODIFIED / DELETED / BOOKMARK / ERROR events, one JSON document a line.
"""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from kubernetes.client import ApiClient

from dhcpless.errors import Transient
from dhcpless.kube.api.resources import Resource
from dhcpless.kube.transport import core, large

Raw = Mapping[str, Any]
Keep = Callable[[Raw], Raw]
CONNECT_SECONDS = 5.0
READ_MARGIN_SECONDS = 30.0
"""A watch reads nothing between events: the read timeout is its `timeoutSeconds` plus this,
so a stream that went silent (a dead peer) ends as broken instead of hanging for ever."""


@dataclass(frozen=True, slots=True)
class Listed:
    items: tuple[Raw, ...]
    resource_version: str


@dataclass(frozen=True, slots=True)
class WatchEvent:
    type: str
    """ADDED, MODIFIED, DELETED, BOOKMARK or ERROR (then `object` is a metav1.Status)."""
    object: Raw


def unchanged(obj: Raw) -> Raw:
    """Keep the whole object (what a reflector without a cache's trimming passes on)."""
    return obj


class Expired(Transient):
    """410 Gone: the resourceVersion is older than the server's history; relist."""


PAGE: Final = 500
"""Objects per LIST page, as client-go's pager (`tools/pager`, `defaultPageSize`): a cache of
a large kind never holds a whole fleet's raw objects at once, only one page and what it keeps."""


def list_all(
    api: ApiClient,
    res: Resource[Any],
    namespace: str | None,
    keep: Keep = unchanged,
    page: int | None = PAGE,
    pages: int | None = None,
    selector: str = "",
) -> Listed:
    """One LIST of a namespace (None: all of them), page by page (`ApiException` on an error
    status), each object passed through `keep` as its page arrives. The resourceVersion is the
    first page's: every page is of that snapshot (kube-apiserver's continue token carries it),
    and a watch from it sees whatever changed since, whichever page it fell in. `pages`: stop
    after so many; `page` None: one request; `selector`: a label selector."""
    path, items, version, token = res.path(namespace, False), [], "", ""
    while True:
        query = ({"limit": str(page)} if page else {}) | ({"continue": token} if token else {})
        query |= {"labelSelector": selector} if selector else {}
        raw = core.request(api, "GET", path, _params(namespace), query=query)
        body = raw if isinstance(raw, Mapping) else {}
        meta = body.get("metadata") or {}
        version = version or str(meta.get("resourceVersion") or "")
        items += [keep(obj) for obj in body.get("items") or ()]
        token, pages = str(meta.get("continue") or ""), None if pages is None else pages - 1
        if not token or pages == 0:
            return Listed(tuple(items), version)


def list_version(api: ApiClient, res: Resource[Any], namespace: str) -> Listed:
    """The collection's resourceVersion alone (a one-object page, its object dropped): what a
    cache that holds only what it sees change starts from (`kube.cache.kept.limit_for`)."""
    listed = list_all(api, res, namespace, page=1, pages=1)
    return Listed((), listed.resource_version)


def watch(
    api: ApiClient,
    res: Resource[Any],
    namespace: str | None,
    since: str,
    seconds: int,
    opened: Callable[[Any], None] = lambda _: None,
    keep: Keep = unchanged,
    selector: str = "",
    bookmarks: bool = True,
) -> Iterator[WatchEvent]:
    """The events of one WATCH from `since` until the server ends it (`timeoutSeconds`).
    An ERROR event with code 410 raises `Expired`; any other ERROR a `Transient`. `opened`
    gets the live response (closing it from another thread ends the stream at once). Each
    object passes through `keep` as it is decoded, one large document at a time in the process
    (`kube.transport.large`), so a large one is trimmed before anything else large is decoded."""
    query = {"watch": "true", "resourceVersion": since}
    query |= {"allowWatchBookmarks": "true"} if bookmarks else {}
    query |= {"timeoutSeconds": str(seconds)} | ({"labelSelector": selector} if selector else {})
    response = _open(api, res.path(namespace, False), namespace, query, seconds)
    opened(response)
    try:
        for line in _lines(response):
            with large.one_at_a_time(len(line)):  # the object trimmed before the next decode
                event = _event(json.loads(line), keep)
            del line
            yield event
    finally:
        response.response.release_conn()


def _params(namespace: str | None) -> dict[str, str]:
    return {} if namespace is None else {"namespace": namespace}


def _open(
    api: ApiClient, path: str, namespace: str | None, query: Mapping[str, str], seconds: int
) -> Any:
    serialized = api.param_serialize(
        method="GET",
        resource_path=path,
        path_params=_params(namespace),
        query_params=list(query.items()),
        header_params={"Accept": "application/json"},
        auth_settings=["BearerToken"],
    )
    timeout = (CONNECT_SECONDS, seconds + READ_MARGIN_SECONDS)
    response = api.call_api(*serialized, _request_timeout=timeout)
    if not 200 <= response.status < 300:
        response.read()  # type: ignore[no-untyped-call]
        api.response_deserialize(response, {"2XX": "object"})  # raises ApiException
    return response


def interrupt(response: Any) -> None:
    """End a stream another thread is reading: shut its socket down (closing the response
    from here would wait for the reader's lock, held until the next chunk arrives)."""
    connection = getattr(response.response, "connection", None)
    sock = getattr(connection, "sock", None)
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


def _lines(response: Any) -> Iterator[bytes]:
    """Newline-delimited JSON from the chunked body, as it arrives. A line's chunks are joined
    once, at its end: adding each chunk to what was pending copied a long line (a large
    pool's event is a hundred chunks) once per chunk."""
    parts: list[bytes] = []
    for chunk in response.response.stream(4096, decode_content=True):
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            parts.append(chunk[start:end])
            line, parts, start = b"".join(parts), [], end + 1
            if line.strip():
                yield line
        if start < len(chunk):
            parts.append(chunk[start:])
    if (tail := b"".join(parts)).strip():
        yield tail


def _event(raw: object, keep: Keep = unchanged) -> WatchEvent:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("object"), Mapping):
        raise Transient("watch event without an object")
    kind, obj = str(raw.get("type") or ""), raw["object"]
    if kind == "ERROR":
        code, message = obj.get("code"), str(obj.get("message") or "")
        raise Expired(message) if code == 410 else Transient(f"watch error {code}: {message}")
    return WatchEvent(kind, obj if kind == "BOOKMARK" else keep(obj))
