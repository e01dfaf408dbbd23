"""resync's own settings, read once when the app is built (never deep inside a handler).

* `NAMESPACE` (keys.NAMESPACE_ENV): the one namespace whose BareMetalHosts resync lists, so a
  namespaced Role suffices. Unset: the pod's own namespace (the service-account namespace
  file Kubernetes mounts), else `default` (out of a cluster, e.g. under the sandbox, which
  passes the namespace explicitly).
* `DHCPLESS_NAMESPACE_SELECTOR` (keys.NAMESPACE_SELECTOR_ENV, the cluster-wide option in
  deploy/cluster-wide): a label selector on Namespaces; set, resync lists the hosts of every
  namespace it selects (the sources' `namespaceSelector`) instead of `NAMESPACE` alone.
* `DHCPLESS_HANG_SECONDS` (keys.HANG_SECONDS_ENV): how long a released host may stay
  inspecting (or in registration error) before a `HostHangs` Warning is recorded (900).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from dhcpless import keys
from dhcpless.chain.decide.hang import DEFAULT_HANG_SECONDS


class ResyncSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    namespace: str = Field(min_length=1)
    hang_seconds: float = Field(default=DEFAULT_HANG_SECONDS, gt=0)
    namespace_selector: str = ""
    """Empty: the one `namespace`; else the Namespaces this label selector selects."""

    @classmethod
    def from_environment(
        cls,
        environ: Mapping[str, str] | None = None,
        namespace_file: Path = Path(keys.SERVICE_ACCOUNT_NAMESPACE_FILE),
    ) -> ResyncSettings:
        """From the environment; a malformed value stops the app at start (pydantic error)."""
        env = os.environ if environ is None else environ
        namespace = env.get(keys.NAMESPACE_ENV) or _pod_namespace(namespace_file) or "default"
        hang = env.get(keys.HANG_SECONDS_ENV) or DEFAULT_HANG_SECONDS
        selector = env.get(keys.NAMESPACE_SELECTOR_ENV, "")
        return cls.model_validate(
            {"namespace": namespace, "hang_seconds": hang, "namespace_selector": selector}
        )


def _pod_namespace(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""
