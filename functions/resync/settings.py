"""resync's one settings object: the common `Settings` plus its own fields, read from the
environment once when the app is built (never deep inside a handler).

* `NAMESPACE` (keys.NAMESPACE_ENV): the one namespace whose BareMetalHosts resync lists, so a
  namespaced Role suffices. Unset: the pod's own namespace (the service-account namespace
  file Kubernetes mounts), else `default` (out of a cluster, e.g. under the sandbox, which
  passes the namespace explicitly).
* `DHCPLESS_NAMESPACE_SELECTOR` (keys.NAMESPACE_SELECTOR_ENV, the cluster-wide option in
  deploy/cluster-wide): a label selector on Namespaces; set, resync lists the hosts of every
  namespace it selects (the sources' `namespaceSelector`) instead of `NAMESPACE` alone.
* `DHCPLESS_HANG_SECONDS` (keys.HANG_SECONDS_ENV): how long a released host may stay
  inspecting (or in registration error) before a `HostHangs` Warning is recorded (900).
* `DHCPLESS_RESYNC_WORKERS` (keys.RESYNC_WORKERS_ENV): how many due hosts one tick reconciles
  at once (4; 1 = one after the other). See `ticks` for why and what bounds it.
* `DHCPLESS_RESYNC_BUDGET_SECONDS` (keys.RESYNC_BUDGET_ENV): how long one tick may reconcile
  before it stops and records where (`cursor`); 30 s, half the Service's `timeoutSeconds`.
* `DHCPLESS_METRICS_PUSH_URL` (keys.METRICS_PUSH_URL_ENV): a Pushgateway group URL the fleet
  gauges are PUT to after every tick (`fleet`); unset, they are on `GET /metrics` only.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import Field

from dhcpless import keys
from dhcpless.chain.decide.hang import DEFAULT_HANG_SECONDS
from dhcpless.settings import Settings

DEFAULT_WORKERS = 4
"""A 300-host chaos tick measured 111 s one host at a time: each host waits on ~17 API round
trips, and a few in flight overlap those waits without crowding the API server."""
DEFAULT_BUDGET_SECONDS = 30.0
"""Half of the Service's `timeoutSeconds` (60): the hosts in flight when it is spent (each a
pipeline of API calls bounded by `limits.API_TIMEOUT`) and the remaining LISTs of the gauges
end well before Serving cuts the request (`cursor`)."""
MAX_WORKERS = 32
"""Beyond this a tick is a burst the API server's priority and fairness would throttle."""


class ResyncSettings(Settings):
    namespace: str = Field(min_length=1)
    hang_seconds: float = Field(default=DEFAULT_HANG_SECONDS, gt=0)
    namespace_selector: str = ""
    """Empty: the one `namespace`; else the Namespaces this label selector selects."""
    workers: int = Field(default=DEFAULT_WORKERS, ge=1, le=MAX_WORKERS)
    """Due hosts one tick reconciles at once."""
    budget_seconds: float = Field(default=DEFAULT_BUDGET_SECONDS, gt=0)
    """Seconds one tick may reconcile before it stops and records where (`cursor`)."""
    metrics_push_url: str = ""
    """A Pushgateway group URL the fleet gauges are PUT to after each tick (`fleet`); empty:
    served on `GET /metrics` only."""

    @classmethod
    def from_environment(
        cls,
        environ: Mapping[str, str] | None = None,
        namespace_file: Path = Path(keys.SERVICE_ACCOUNT_NAMESPACE_FILE),
    ) -> ResyncSettings:
        """From the environment; a malformed value stops the app at start (pydantic error)."""
        env = os.environ if environ is None else environ
        namespace = env.get(keys.NAMESPACE_ENV) or _pod_namespace(namespace_file) or "default"
        return cls.model_validate({**cls.fields_from(env), "namespace": namespace})

    @classmethod
    def fields_from(cls, env: Mapping[str, str]) -> dict[str, object]:
        hang = env.get(keys.HANG_SECONDS_ENV) or DEFAULT_HANG_SECONDS
        selector = env.get(keys.NAMESPACE_SELECTOR_ENV, "")
        workers = env.get(keys.RESYNC_WORKERS_ENV) or DEFAULT_WORKERS
        own = {"hang_seconds": hang, "namespace_selector": selector, "workers": workers}
        own["metrics_push_url"] = env.get(keys.METRICS_PUSH_URL_ENV, "")
        own["budget_seconds"] = env.get(keys.RESYNC_BUDGET_ENV) or DEFAULT_BUDGET_SECONDS
        return {**super().fields_from(env), **own}


def one_settings(settings: Settings | None, resync: ResyncSettings | None) -> ResyncSettings:
    """The one object resync runs with: `settings` when it is a `ResyncSettings`; else `resync`
    (the older keyword) or the environment's, with the common fields `settings` gives."""
    if isinstance(settings, ResyncSettings):
        return settings
    found = resync or ResyncSettings.from_environment()
    return found if settings is None else found.model_copy(update=settings.model_dump())


def _pod_namespace(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""
