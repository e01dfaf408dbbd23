"""A Flask test client that returns once the request's queued Events are posted.

Exists because the functions post most core/v1 Events from a background thread
(`dhcpless.kube.events.posting`): a test that reads a host's Events right after a handler returned
would race that thread. Every Flask test client of the suite is this one (`tests/conftest.py`),
so such a test waits on the condition "queue drained" (with a deadline), never on a sleep.
"""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from dhcpless.kube.events import recorder

FLUSH_SECONDS = 60.0
"""Generous: the posting thread may wait behind a loaded machine."""


class PostedClient(FlaskClient):
    """`FlaskClient` whose every request ends with `recorder.flush` (an error if it times out)."""

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        response = super().open(*args, **kwargs)
        if not recorder.flush(FLUSH_SECONDS):
            raise AssertionError(f"queued Events not posted within {FLUSH_SECONDS:.0f} s")
        return response
