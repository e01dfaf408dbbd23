"""The one place `kubernetes` client exceptions become our error families (`dhcpless.errors`).

* 404 NotFound -> `Gone`: the object is not there; the caller decides if that ends handling.
* 409 on create (`AlreadyExists`) -> `AlreadyExists`: an idempotent create found its object.
* 409 otherwise (`Conflict`) -> `Conflict` (a `Transient`): someone wrote first; a retry
  re-reads. `dhcpless.serving.retrying` retries it in-process, so it never reaches the broker.
* 409/422 on a JSON patch -> `PreconditionFailed` (a `Conflict`): a `test` op failed (the API
  server answers 422 for that), i.e. someone else changed the object; a retry re-reads.
* 422 otherwise, 400 -> `InvalidInput`: what we would write can never be accepted.
* 401/403 -> `ApiUnavailable` (a `Transient`, 503): missing RBAC is a deploy bug, not a
  property of the event. A 400 would drop every event while the fix rolls out; a 503 is
  retried with backoff, and resync re-drives whatever exhausted its retries.
* 429, 5xx, any other status -> `ApiUnavailable`: the API server is busy or broken now.
* urllib3 / socket errors -> `ApiUnavailable`: the API server is unreachable now.

`ApiUnavailable` is the only family that answers 503: under the default (synchronous) Broker a
503 holds up every event behind it for the whole backoff, so only what stops every host alike
may cause one; anything one host can cause is retried in-process or ends as an outcome.
* an object read back without the shape we need (`ModelError`) -> `InvalidInput`: retrying
  the event cannot change it; a fix to the object brings a new event.
* client-side argument errors (`ApiTypeError`, ...) -> `InvalidInput`: the request could not
  even be built from the input.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum

import urllib3.exceptions
from kubernetes.client.exceptions import ApiException, OpenApiException

from dhcpless.errors import AlreadyExists, DhcplessError, Gone, InvalidInput, Transient
from dhcpless.models import ModelError


class Verb(StrEnum):
    """What the adapter was doing; the same status means different things per verb."""

    GET = "get"
    LIST = "list"
    CREATE = "create"
    UPDATE = "update"
    PATCH = "patch"
    DELETE = "delete"


class Conflict(Transient):
    """Someone wrote the object first (409): re-reading and deciding again resolves it."""


class PreconditionFailed(Conflict):
    """A JSON patch `test` op failed: the object changed since we read it."""


class ApiUnavailable(Transient):
    """The API cannot serve us now (unreachable, busy, broken, or RBAC missing): 503."""


@contextmanager
def translated(verb: Verb, what: str) -> Iterator[None]:
    """Run one client call; re-raise whatever it raises as one of our families."""
    try:
        yield
    except (OpenApiException, urllib3.exceptions.HTTPError, OSError) as exc:
        raise translate(exc, verb, what) from exc
    except ModelError as exc:  # the object in the API does not have the shape we need
        raise InvalidInput(str(exc)) from exc


def translate(exc: BaseException, verb: Verb, what: str) -> DhcplessError:
    """Map one client exception (see the module table)."""
    if isinstance(exc, ApiException):
        return _from_status(exc.status or 0, _status_reason(exc), verb, what)
    if isinstance(exc, OpenApiException):
        return InvalidInput(f"cannot {verb} {what}: {type(exc).__name__}")
    return ApiUnavailable(f"cannot {verb} {what}: API server unreachable ({type(exc).__name__})")


def _from_status(status: int, reason: str, verb: Verb, what: str) -> DhcplessError:
    text = f"{verb} {what}: {status} {reason}".rstrip()
    if status == 404:
        return Gone(f"{what} not found")
    if verb is Verb.PATCH and status in (409, 422):
        return PreconditionFailed(f"{text} (changed since read)")
    if status == 409:
        created = verb is Verb.CREATE and reason in ("AlreadyExists", "")
        return AlreadyExists(text) if created else Conflict(text)
    if status in (400, 422):
        return InvalidInput(text)
    return ApiUnavailable(text)


def _status_reason(exc: ApiException) -> str:
    """The `reason` of the metav1.Status body (`AlreadyExists`, `Conflict`, ...), if any."""
    try:
        body = json.loads(exc.body or "")
    except (ValueError, TypeError):
        return ""
    reason = body.get("reason") if isinstance(body, dict) else None
    return reason if isinstance(reason, str) else ""
