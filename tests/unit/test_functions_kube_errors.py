"""Client exception translation (`dhcpless.kube.transport.errors`), in the style of httpx's
`test_httpcore_all_exceptions_mapped`: a client upgrade that adds an exception class fails here.

Covers: every `OpenApiException` subclass the client defines maps to one of our families; the
status table per verb (AlreadyExists on create is success, a failed JSON-patch test is a
retried precondition, a conflict is a `Conflict`, RBAC denials and a busy or unreachable API are
`ApiUnavailable` (the one 503), 422 elsewhere is invalid); urllib3 errors.
"""

from __future__ import annotations

import inspect
import json

import pytest
import urllib3.exceptions
from kubernetes.client import exceptions as client_exceptions

from dhcpless import errors
from dhcpless.kube.transport import errors as kube_errors
from dhcpless.kube.transport.errors import Verb
from dhcpless.models import ModelError


def all_client_exception_classes() -> list[type[BaseException]]:
    return [
        cls
        for _, cls in inspect.getmembers(client_exceptions, inspect.isclass)
        if issubclass(cls, client_exceptions.OpenApiException)
    ]


def build(cls: type[BaseException]) -> BaseException:
    if issubclass(cls, client_exceptions.ApiException):
        return cls(status=500, reason="x")
    return cls("x")


def test_every_client_exception_class_is_mapped() -> None:
    classes = all_client_exception_classes()
    assert len(classes) >= 12  # the client defines at least this many today
    for cls in classes:
        mapped = kube_errors.translate(build(cls), Verb.GET, "thing ns/n")
        assert isinstance(mapped, errors.DhcplessError), cls


def api_error(status: int, reason: str = "") -> client_exceptions.ApiException:
    body = json.dumps({"kind": "Status", "reason": reason}) if reason else None
    return client_exceptions.ApiException(status=status, reason="r", body=body)


@pytest.mark.parametrize(
    ("status", "reason", "verb", "family"),
    [
        pytest.param(404, "NotFound", Verb.GET, errors.Gone, id="get-404"),
        pytest.param(404, "", Verb.PATCH, errors.Gone, id="patch-404"),
        pytest.param(409, "AlreadyExists", Verb.CREATE, errors.AlreadyExists, id="create-exists"),
        pytest.param(409, "", Verb.CREATE, errors.AlreadyExists, id="create-409-no-body"),
        pytest.param(409, "Conflict", Verb.UPDATE, kube_errors.Conflict, id="update-conflict"),
        pytest.param(409, "Conflict", Verb.PATCH, kube_errors.PreconditionFailed, id="patch-409"),
        pytest.param(
            422, "Invalid", Verb.PATCH, kube_errors.PreconditionFailed, id="patch-test-failed"
        ),
        pytest.param(422, "Invalid", Verb.CREATE, errors.InvalidInput, id="create-invalid"),
        pytest.param(400, "BadRequest", Verb.CREATE, errors.InvalidInput, id="bad-request"),
        pytest.param(401, "Unauthorized", Verb.GET, kube_errors.ApiUnavailable, id="unauthorized"),
        pytest.param(403, "Forbidden", Verb.CREATE, kube_errors.ApiUnavailable, id="forbidden"),
        pytest.param(429, "TooManyRequests", Verb.LIST, kube_errors.ApiUnavailable, id="throttled"),
        pytest.param(500, "InternalError", Verb.GET, kube_errors.ApiUnavailable, id="server-error"),
        pytest.param(504, "Timeout", Verb.DELETE, kube_errors.ApiUnavailable, id="gateway-timeout"),
    ],
)
def test_status_table(status: int, reason: str, verb: Verb, family: type[Exception]) -> None:
    mapped = kube_errors.translate(api_error(status, reason), verb, "IPClaim ns/h1-pool")
    assert type(mapped) is family


@pytest.mark.parametrize(
    "exc",
    [
        pytest.param(
            urllib3.exceptions.MaxRetryError(urllib3.HTTPConnectionPool("h"), "/x"), id="max-retry"
        ),
        pytest.param(urllib3.exceptions.ProtocolError("reset"), id="protocol"),
        pytest.param(ConnectionRefusedError(), id="refused"),
    ],
)
def test_unreachable_api_is_unavailable(exc: Exception) -> None:
    with (
        pytest.raises(kube_errors.ApiUnavailable, match="unreachable") as info,
        kube_errors.translated(Verb.GET, "BareMetalHost ns/h1"),
    ):
        raise exc
    assert info.value.__cause__ is exc


def test_an_object_of_the_wrong_shape_is_invalid_input() -> None:
    with (
        pytest.raises(errors.InvalidInput, match="field spec") as info,
        kube_errors.translated(Verb.GET, "IPClaim ns/h1-pool"),
    ):
        raise ModelError("IPClaim ns/h1-pool: field spec: Field required")
    assert isinstance(info.value.__cause__, ModelError)
