"""Every function's app from its name: the one public factory that `dhcpless serve` and the
sandbox's runtime build functions with (gunicorn, in the image and in the sandbox's processes,
loads the same `create_app` of each function by `registry.Function.factory`).

Each builder imports its function's app only when called, so a pod imports the one it serves;
the imports are plain ones (no `importlib`), which the import contracts see.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask

from dhcpless import registry
from dhcpless.keys import DEAD_LETTER_FUNCTION, FunctionName
from dhcpless.kube import Kube
from dhcpless.settings import Settings

Builder = Callable[[Kube | None, Settings | None], Flask]


def _host_registration(kube: Kube | None, settings: Settings | None) -> Flask:
    from functions.host_registration import app

    return app.create_app(kube, settings)


def _ipclaim_fulfilment(kube: Kube | None, settings: Settings | None) -> Flask:
    from functions.ipclaim_fulfilment import app

    return app.create_app(kube, settings)


def _secret_readiness(kube: Kube | None, settings: Settings | None) -> Flask:
    from functions.secret_readiness import app

    return app.create_app(kube, settings)


def _resync(kube: Kube | None, settings: Settings | None) -> Flask:
    """`settings` may be a `functions.resync.settings.ResyncSettings` (its namespace)."""
    from functions.resync import app

    return app.create_app(kube, settings)


def _dead_letter(kube: Kube | None, settings: Settings | None) -> Flask:
    """The sink reads no API and takes no settings (`registry`: `takes_client=False`)."""
    from functions.dead_letter import app

    return app.create_app()


BUILDERS: dict[str, Builder] = {
    FunctionName.HOST_REGISTRATION: _host_registration,
    FunctionName.IPCLAIM_FULFILMENT: _ipclaim_fulfilment,
    FunctionName.SECRET_READINESS: _secret_readiness,
    FunctionName.RESYNC: _resync,
    DEAD_LETTER_FUNCTION: _dead_letter,
}
"""One builder per `registry.FUNCTIONS` entry (a test holds the two equal)."""


def create_app(name: str, kube: Kube | None = None, settings: Settings | None = None) -> Flask:
    """The app of the function called `name` (ValueError naming the known ones otherwise);
    `kube` None: the app builds its own from the environment, as in a pod."""
    return BUILDERS[registry.function(name).name](kube, settings)
