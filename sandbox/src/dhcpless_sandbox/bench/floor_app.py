"""The floor function the bench compares cold starts with: what no function can go below.

A Knative function in Python with this project's runtime dependencies — Flask, cloudevents,
pydantic and the `kubernetes` client — that parses the event into one pydantic model and makes
one GET, started exactly as the real functions are (`sandbox.processes`, gunicorn with
`dhcpless.serving.gunicorn_slim`) and configured the same way
(`dhcpless.kube.transport.config`). The real functions' extra cold start over it is what our
own code costs: `cold_start_ratio_to_floor`.
"""

from __future__ import annotations

from cloudevents.core.bindings.http import HTTPMessage, from_http_event
from flask import Flask, Response, request
from kubernetes import client
from kubernetes.client.exceptions import ApiException
from pydantic import BaseModel, ConfigDict

from dhcpless.kube import configuration

APP = "dhcpless_sandbox.bench.floor_app:create_app()"
"""The gunicorn app-factory string."""


class Named(BaseModel):
    model_config = ConfigDict(extra="ignore")

    name: str
    namespace: str


class About(BaseModel):
    """The one model: which object the event is about (its data's `metadata`)."""

    model_config = ConfigDict(extra="ignore")

    metadata: Named


def create_app() -> Flask:
    api = client.CustomObjectsApi(client.ApiClient(configuration()))
    app = Flask("floor")

    @app.post("/")
    def receive() -> Response:
        message = HTTPMessage(headers=dict(request.headers), body=request.get_data())
        seen = About.model_validate(from_http_event(message).get_data()).metadata
        try:
            api.get_namespaced_custom_object(
                "metal3.io", "v1alpha1", seen.namespace, "baremetalhosts", seen.name
            )
        except ApiException as error:
            if error.status != 404:
                return Response(status=503)
        return Response(status=204)

    return app
