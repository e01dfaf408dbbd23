"""The functions the image serves, in one place: name, Python module, what events reach it.

Pure data, read by everything that maps a function name to code or to wiring:
`deploy/gunicorn_conf.py` and the sandbox's gunicorn processes (which app factory to load),
`functions.apps` (one builder per entry, which `dhcpless serve` and the sandbox's runtime call),
and a manifest test that holds it equal to
`functions/*/func.yaml`, the Knative Services in `deploy/` and `eventing/`, and the Triggers'
filters. The event types and kinds are what the function's Trigger passes (knative/eventing
`pkg/eventfilter/subscriptionsapi/all_filter.go` and `any_filter.go`: a Trigger's `filters` are
ANDed and `any` ORs its members, so each function gets one of `event_types` about one of
`kinds`; empty `kinds`: any kind).
"""

from __future__ import annotations

from dataclasses import dataclass

from dhcpless.keys import DEAD_LETTER_FUNCTION, EventType, FunctionName

PING: str = "dev.knative.sources.ping"
"""A PingSource's CloudEvent type (knative/eventing `pkg/apis/sources/v1/ping_lifecycle.go`,
`PingSourceEventType`)."""


@dataclass(frozen=True, slots=True)
class Function:
    """One Knative Service the image serves (the container's `FUNCTION`)."""

    name: str
    package: str
    """The package under `functions/`; its `app` module has `create_app`."""
    event_types: frozenset[str] = frozenset()
    kinds: frozenset[str] = frozenset()
    takes_client: bool = True
    """`create_app(kube, settings)`; False: `create_app()` (the sink reads no API)."""

    @property
    def module(self) -> str:
        return f"functions.{self.package}.app"

    @property
    def factory(self) -> str:
        """The gunicorn app-factory string."""
        return f"{self.module}:create_app()"


_CHANGES = frozenset({EventType.RESOURCE_ADD, EventType.RESOURCE_UPDATE})
_ALL_CHANGES = _CHANGES | {EventType.RESOURCE_DELETE}
_REF_CHANGES = frozenset({EventType.REF_ADD, EventType.REF_UPDATE})

FUNCTIONS: tuple[Function, ...] = (
    Function(
        FunctionName.HOST_REGISTRATION,
        "host_registration",
        _CHANGES,
        frozenset({"BareMetalHost", "Metal3Data"}),
    ),
    Function(
        FunctionName.IPCLAIM_FULFILMENT,
        "ipclaim_fulfilment",
        _ALL_CHANGES,
        frozenset({"IPClaim", "IPPool", "IPAddressClaim"}),
    ),
    Function(
        FunctionName.SECRET_READINESS, "secret_readiness", _REF_CHANGES, frozenset({"Secret"})
    ),
    Function(FunctionName.RESYNC, "resync", frozenset({PING})),
    Function(DEAD_LETTER_FUNCTION, "dead_letter", takes_client=False),
)
"""The four functions of the DESIGN (`keys.FunctionName`), then the dead-letter sink, which no
Trigger feeds: it receives what every Trigger's delivery gave up on."""

BY_NAME = {function.name: function for function in FUNCTIONS}


def function(name: str) -> Function:
    """The function called `name`; ValueError naming the known ones otherwise."""
    found = BY_NAME.get(name)
    if found is None:
        raise ValueError(f"{name!r} is not one of: {', '.join(sorted(BY_NAME))}")
    return found
