"""The generic typed operations every named call of the adapter (`kube.api.client`) is built on.

One method per verb, typed by the resource descriptor (`kube.api.resources`): `get(HOSTS, ...)`
returns a `BareMetalHost`. Every request passes through `_send`, the one place a client
exception becomes one of our families (`kube.transport.errors.translated`: a 404 is `Gone`), and
`find` is the one place `Gone` is read as "absent". Patches follow kubectl's two kinds
(kubernetes/apimachinery `pkg/types/patch.go`: `application/json-patch+json`, whose failed
`test` op the API server answers with 422, and `application/merge-patch+json`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final, TypeVar

from kubernetes.client import ApiClient

from dhcpless import tracing
from dhcpless.errors import Gone, Transient
from dhcpless.kube.api.resources import M, Resource
from dhcpless.kube.transport import core
from dhcpless.kube.transport.errors import Verb, translated

JSON_PATCH = "application/json-patch+json"
MERGE_PATCH = "application/merge-patch+json"
JsonPatch = Sequence[Mapping[str, Any]]
Body = Mapping[str, Any] | JsonPatch
R = TypeVar("R")
Page = list
"""One page of a paged LIST (the name `list` is a method of the class below)."""
PAGE: Final = 500
"""Objects per page of a paged LIST, as client-go's pager (`tools/pager`, `defaultPageSize`)."""


class GenericKube:
    """get / find / list / create / replace / patch / delete for any described resource."""

    api_client: ApiClient

    def get(self, res: Resource[M], namespace: str, name: str) -> M:
        return self._send(Verb.GET, res, namespace, name, read=_one(res))

    def find(self, res: Resource[M], namespace: str, name: str) -> M | None:
        """The object, or None when it is not there (every other failure still raises)."""
        try:
            return self.get(res, namespace, name)
        except Gone:
            return None

    def list(self, res: Resource[M], namespace: str | None, selector: str = "") -> list[M]:
        """One namespace (None: all of them), optionally narrowed by a label selector."""
        query = {"labelSelector": selector} if selector else None
        return self._send(Verb.LIST, res, namespace, query=query, read=_many(res))

    def list_pages(
        self, res: Resource[M], namespace: str, selector: str = "", page: int = PAGE
    ) -> Iterator[Page[M]]:
        """The same LIST, `page` objects a request: a caller that keeps only what it needs of
        each page never holds a whole fleet's objects at once (issue 28)."""
        token = ""
        while True:
            query = {"limit": str(page)} | ({"labelSelector": selector} if selector else {})
            query |= {"continue": token} if token else {}
            items, token = self._send(Verb.LIST, res, namespace, query=query, read=_page(res))
            yield items
            if not token:
                return

    def create(self, res: Resource[M], obj: M) -> M:
        """Raises AlreadyExists (an outcome) when an object of that name is there already."""
        namespace = _namespace(obj)
        body = _body(res, obj)
        tracing.stamp(body)  # the delivery that made it (`keys.TRACEPARENT_ANNOTATION`)
        return self._send(Verb.CREATE, res, namespace, body=body, read=_one(res))

    def replace(self, res: Resource[M], obj: M) -> M:
        """PUT, guarded by the resourceVersion the caller read (a conflict is Transient)."""
        body = _body(res, obj)
        return self._send(Verb.UPDATE, res, _namespace(obj), _name(obj), body, read=_one(res))

    def patch(self, res: Resource[M], namespace: str, name: str, patch: Body) -> M:
        """A mapping is a merge patch; a sequence a JSON patch (a failed `test` op is
        PreconditionFailed)."""
        kind = MERGE_PATCH if isinstance(patch, Mapping) else JSON_PATCH
        return self._send(Verb.PATCH, res, namespace, name, patch, kind=kind, read=_one(res))

    def delete(self, res: Resource[M], namespace: str, name: str) -> None:
        self._send(Verb.DELETE, res, namespace, name, read=_ignored)

    def _send(
        self,
        verb: Verb,
        res: Resource[Any],
        namespace: str | None,
        name: str = "",
        body: Body | None = None,
        query: Mapping[str, str] | None = None,
        kind: str = "application/json",
        *,
        read: Callable[[object], R],
    ) -> R:
        """One request and the reading of its answer, every client error and every answer of
        the wrong shape translated (the adapter's only `translated`)."""
        params = {"namespace": namespace} if namespace is not None and res.namespaced else {}
        params |= {"name": name} if name else {}
        path = res.path(namespace, bool(name))
        with translated(verb, res.what(namespace, name)):
            raw = core.request(self.api_client, _METHODS[verb], path, params, body, query, kind)
            return read(raw)


_METHODS = {
    Verb.GET: "GET", Verb.LIST: "GET", Verb.CREATE: "POST", Verb.UPDATE: "PUT",
    Verb.PATCH: "PATCH", Verb.DELETE: "DELETE",
}  # fmt: skip


def _mapping(raw: object) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise Transient(f"unexpected API response of type {type(raw).__name__}")
    return raw


def _one(res: Resource[M]) -> Callable[[object], M]:
    return lambda raw: res.parse(_mapping(raw))


def _many(res: Resource[M]) -> Callable[[object], list[M]]:
    return lambda raw: [res.parse(_mapping(item)) for item in _mapping(raw).get("items") or []]


def _page(res: Resource[M]) -> Callable[[object], tuple[list[M], str]]:
    """One page's objects and the token of the next ("" after the last)."""

    def read(raw: object) -> tuple[list[M], str]:
        token = (_mapping(raw).get("metadata") or {}).get("continue") or ""
        return _many(res)(raw), str(token)

    return read


def _ignored(raw: object) -> None:
    return None


def _namespace(obj: Any) -> str:
    return str(obj.metadata.namespace or "default")


def _name(obj: Any) -> str:
    return str(obj.metadata.name)


def _body(res: Resource[Any], obj: Any) -> dict[str, Any]:
    """The object as sent: at the descriptor's apiVersion, whatever the model defaults to (a
    CAPI claim built at v1beta1 is sent at v1beta2 when that is served, `kube.api.versions`)."""
    return {**obj.to_k8s(), "apiVersion": res.api_version, "kind": res.kind}
