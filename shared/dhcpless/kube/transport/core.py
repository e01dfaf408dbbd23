"""Every call of the adapter, through the real client's generic request path.

Exists because `kubernetes.client.CoreV1Api` imports hundreds of model classes on first use
(about 0.8 s and 20 MB per cold start, README "Performance"), and `CustomObjectsApi` about
30 ms more, while a function needs a few calls on plain JSON. `ApiClient.param_serialize` /
`call_api` / `response_deserialize` are what the generated APIs use themselves: same
configuration, authentication, TLS and `ApiException` on error, so `kube.transport.errors`
translates these calls like every other. `kube.api.generic` builds every typed call on `request`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kubernetes.client import ApiClient

from dhcpless import names
from dhcpless.errors import InvalidInput

NAMESPACES = "/api/v1/namespaces"


def request(
    api: ApiClient,
    method: str,
    path: str,
    params: Mapping[str, str],
    body: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
    query: Mapping[str, str] | None = None,
    content_type: str = "application/json",
) -> object:
    """One JSON request; the decoded answer (a plain dict), `ApiException` on an error.

    Names and namespaces read from objects (a host's `preprovisioningNetworkDataName`) are
    checked here, where they become path segments: `.` would turn a GET into a LIST.
    """
    check_segments(params)
    headers = {"Accept": "application/json"}
    if body is not None:
        headers["Content-Type"] = content_type  # a patch names its kind of patch here
    serialized = api.param_serialize(
        method=method,
        resource_path=path,
        path_params=dict(params),
        query_params=list((query or {}).items()),
        header_params=headers,
        body=_plain(body),
        auth_settings=["BearerToken"],
    )
    response = api.call_api(*serialized)
    response.read()  # type: ignore[no-untyped-call]
    answer = api.response_deserialize(response, {"2XX": "object"})
    return answer.data


def _plain(body: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None) -> object:
    """A JSON document the client serialises as is (a JSON patch is a list of operations)."""
    if body is None or isinstance(body, Mapping):
        return None if body is None else dict(body)
    return [dict(op) for op in body]


def check_segments(params: Mapping[str, str]) -> None:
    """InvalidInput (400) for a name or namespace the API could never hold (`names`)."""
    checks = {"name": names.name_problem, "namespace": names.namespace_problem}
    for key, value in params.items():
        problem = checks[key](value) if key in checks else None
        if problem is not None:
            raise InvalidInput(problem)
