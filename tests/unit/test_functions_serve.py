"""`dhcpless serve` (`dhcpless.serving.serve`): every function name yields its app, configured for
gunicorn; unknown names are refused before anything starts."""

from __future__ import annotations

import pytest
from kubernetes import client as k8s

from dhcpless.keys import FunctionName
from dhcpless.kube import Kube
from dhcpless.serving import serve


@pytest.mark.parametrize("function", list(FunctionName))
def test_every_function_has_an_app(function: FunctionName) -> None:
    app = serve.app_for(function.value, Kube(k8s.ApiClient()))
    assert app.name == function.value
    assert app.test_client().get("/health/readiness").status_code == 200


def test_unknown_function_is_refused() -> None:
    with pytest.raises(ValueError, match="nope"):
        serve.app_for("nope", Kube(k8s.ApiClient()))


def test_gunicorn_gets_the_app_and_the_bind_address() -> None:
    app = serve.app_for(FunctionName.RESYNC, Kube(k8s.ApiClient()))
    server = serve._Gunicorn(app, {"bind": "127.0.0.1:0", "workers": 1, "threads": 2})
    assert server.load() is app
    assert server.cfg.bind == ["127.0.0.1:0"] and server.cfg.threads == 2
