"""The thin adapter over the `kubernetes` client, by concern: `api` (the typed surface the chain
uses: `Kube`, its resource descriptors, the CAPI, CAPM3 and Namespace reads), `events` (the
core/v1 Event recorder and its poster), and two internals, `transport` (client configuration,
the request path, timeouts, exception translation, large bodies) and `cache` (the watch cache).

Nothing outside `dhcpless.kube` imports `transport` or `cache` (an import contract): what
callers need of them is named here, the package's public surface (the sandbox's controllers
and event sources stand on the same `Reflector` as the watch cache).
"""

from dhcpless.kube.api.client import Kube, from_environment
from dhcpless.kube.cache.reflector import Policy as ReflectorPolicy
from dhcpless.kube.cache.reflector import Reflector
from dhcpless.kube.cache.watchcache import WatchCache
from dhcpless.kube.cache.watchcache import kinds_for as cached_kinds
from dhcpless.kube.cache.watchstream import Listed
from dhcpless.kube.cache.watchstream import WatchEvent as StreamEvent
from dhcpless.kube.transport.config import configuration
from dhcpless.kube.transport.errors import (
    ApiUnavailable,
    Conflict,
    PreconditionFailed,
    Verb,
    translated,
)
from dhcpless.kube.transport.large import one_at_a_time as one_large_at_a_time
from dhcpless.kube.transport.onewrite import install as one_write

__all__ = [
    "ApiUnavailable",
    "Conflict",
    "Kube",
    "Listed",
    "PreconditionFailed",
    "Reflector",
    "ReflectorPolicy",
    "StreamEvent",
    "Verb",
    "WatchCache",
    "cached_kinds",
    "configuration",
    "from_environment",
    "one_large_at_a_time",
    "one_write",
    "translated",
]
