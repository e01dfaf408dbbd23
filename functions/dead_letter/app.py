"""dead-letter (every Trigger's `delivery.deadLetterSink`): what the broker gave up on.

An event lands here after its last retry, or at once when a function answered 400. Logging
its attributes (one line, at WARNING) makes such failures visible in `kubectl logs`, with
Knative's `knativeerrorcode` and `knativeerrordest` saying which function failed and how.
The data is never logged: a Resource-mode event carries whole objects. The app has no
Kubernetes client at all (its pod mounts no ServiceAccount token) and answers 204.
"""

from __future__ import annotations

import logging
from typing import Final

from cloudevents.core.base import BaseCloudEvent
from flask import Flask, Response, request

from dhcpless.errors import InvalidInput
from dhcpless.keys import DEAD_LETTER_FUNCTION
from dhcpless.serving import events
from dhcpless.serving.body import BodyRefused
from dhcpless.serving.web import request_body

log = logging.getLogger(__name__)
NAME: Final = DEAD_LETTER_FUNCTION

EXTENSIONS: Final = ("kind", "name", "namespace", "knativeerrorcode", "knativeerrordest")
"""ApiServerSource's object extensions, then the two Knative adds on dead-lettering."""


def create_app() -> Flask:
    """The sink's app; takes no settings and no client (nothing here reads the API)."""
    app = Flask(NAME)

    @app.post("/")
    def receive() -> Response:
        try:
            cloudevent = events.read_cloudevent(dict(request.headers), request_body())
        except InvalidInput as err:
            log.warning("dead letter that is not a CloudEvent: %s", err.reason)
            status = err.status if isinstance(err, BodyRefused) else 400
            return Response(f"{err.reason}\n", status=status, mimetype="text/plain")
        log.warning("dead letter: %s", describe(cloudevent))
        return Response(status=204)

    @app.get("/health/liveness")
    @app.get("/health/readiness")
    def health() -> Response:
        return Response("ok\n", status=200, mimetype="text/plain")

    return app


def describe(cloudevent: BaseCloudEvent) -> str:
    """`key=value` for the core attributes and our extensions; never the data."""
    core = {
        "type": cloudevent.get_type(),
        "source": cloudevent.get_source(),
        "subject": cloudevent.get_subject(),
        "id": cloudevent.get_id(),
    }
    extensions = {key: cloudevent.get_extension(key) for key in EXTENSIONS}
    return " ".join(f"{key}={value}" for key, value in {**core, **extensions}.items() if value)
