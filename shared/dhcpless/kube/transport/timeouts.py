"""A timeout on every Kubernetes API call, whoever builds the `ApiClient`.

The official client sends a request without a timeout unless each call passes
`_request_timeout`, and urllib3 treats that explicit None as "wait forever" (kubernetes
`client/rest.py` `RESTClientObject.request`), so a hung API server would hold a function's
thread past Serving's request timeout. `Kube` wraps the client's REST layer once, here, so
the generated APIs and `kube.transport.core` calls alike get `limits.API_TIMEOUT` unless they ask
for another.
"""

from __future__ import annotations

from typing import Any

from kubernetes.client import ApiClient

Timeout = float | tuple[float, float]


class TimedRest:
    """The client's REST object, with a default for `_request_timeout`."""

    def __init__(self, inner: Any, timeout: Timeout) -> None:
        self.inner, self.timeout = inner, timeout

    def request(self, *args: Any, _request_timeout: Timeout | None = None, **kw: Any) -> Any:
        return self.inner.request(*args, _request_timeout=_request_timeout or self.timeout, **kw)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def bounded(api_client: ApiClient, timeout: Timeout) -> ApiClient:
    """The same client, every request of it bounded by `timeout` (connect, read) seconds."""
    rest = api_client.rest_client
    inner = rest.inner if isinstance(rest, TimedRest) else rest
    api_client.rest_client = TimedRest(inner, timeout)  # type: ignore[assignment]  # duck-typed
    return api_client
