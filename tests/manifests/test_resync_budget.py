"""resync's tick budget ends before Serving cuts the request.

Past the Service's `timeoutSeconds` queue-proxy answers 504 while the handler still runs
(knative serving `pkg/http/handler/timeout.go`); the tick's budget
(`DHCPLESS_RESYNC_BUDGET_SECONDS`, else `DEFAULT_BUDGET_SECONDS`) leaves half of it for the
hosts in flight and the remaining LISTs (`functions.resync.cursor`).
"""

from __future__ import annotations

from dhcpless import keys
from functions.resync.settings import DEFAULT_BUDGET_SECONDS, ResyncSettings

from .support import ROOT, load_yaml, named


def test_the_budget_is_at_most_half_the_services_timeout() -> None:
    service = named(load_yaml(ROOT / "deploy" / "base" / "resync.yaml"), "Service", "resync")
    spec = service["spec"]["template"]["spec"]
    env = {e["name"]: e["value"] for e in spec["containers"][0].get("env", [])}
    settings = ResyncSettings.from_environment({keys.NAMESPACE_ENV: "x", **env})
    assert keys.RESYNC_BUDGET_ENV in env
    assert settings.budget_seconds <= spec["timeoutSeconds"] / 2
    assert spec["timeoutSeconds"] / 2 >= DEFAULT_BUDGET_SECONDS
