"""The dead-letter sink is this project's own image, with no Kubernetes API access.

Covers: in the rendered installation every Knative Service (the sink included) runs the one
project image, the sink with FUNCTION=dead-letter; the sink mounts no ServiceAccount token,
names no ServiceAccount and is bound to no Role; every Trigger dead-letters to it.
"""

from __future__ import annotations

import pytest

from dhcpless.keys import DEAD_LETTER_FUNCTION

from .checks import KSVC
from .support import Obj, named, of_kind

pytestmark = pytest.mark.kubectl


def _pod(service: Obj) -> Obj:
    pod: Obj = service["spec"]["template"]["spec"]
    return pod


def test_every_service_runs_the_project_image(installed: list[Obj]) -> None:
    images = {c["image"] for s in of_kind(installed, *KSVC) for c in _pod(s)["containers"]}
    functions = named(installed, "Service", "resync")
    assert images == {_pod(functions)["containers"][0]["image"]}


def test_sink_is_selected_by_function(installed: list[Obj]) -> None:
    (container,) = _pod(named(installed, "Service", DEAD_LETTER_FUNCTION))["containers"]
    assert container["env"] == [{"name": "FUNCTION", "value": DEAD_LETTER_FUNCTION}]


def test_sink_has_no_api_access(installed: list[Obj]) -> None:
    pod = _pod(named(installed, "Service", DEAD_LETTER_FUNCTION))
    assert pod["automountServiceAccountToken"] is False
    assert "serviceAccountName" not in pod
    subjects = [
        s["name"]
        for b in installed
        if b["kind"].endswith("RoleBinding")
        for s in b.get("subjects", [])
    ]
    assert DEAD_LETTER_FUNCTION not in subjects


def test_every_trigger_dead_letters_to_the_sink(installed: list[Obj]) -> None:
    triggers = of_kind(installed, "eventing.knative.dev/v1", "Trigger")
    sinks = {t["spec"]["delivery"]["deadLetterSink"]["ref"]["name"] for t in triggers}
    assert len(triggers) == 4 and sinks == {DEAD_LETTER_FUNCTION}
