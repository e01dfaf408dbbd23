"""The core/v1 Event recorder (`dhcpless.kube.events.recorder`): shape, severity, deduplication.

Covers: every reason has a CamelCase value and a severity (progress is Normal, anything that
keeps a host paused is Warning); the Event names the host (uid included) and our component;
the name is stable for the same decision (so redeliveries dedupe) and differs otherwise;
long messages are cut.
"""

from __future__ import annotations

import re

import pytest

from dhcpless.kube.events import recorder
from dhcpless.reasons import Reason, Severity
from dhcpless.refs import HostRef

HOST = HostRef("metal3", "host-0", "uid-1")
PROGRESS = {"TemplateChosen", "ClaimsCreated", "NetworkDataRendered", "HostReleased"}
PROGRESS |= {"ClaimRetried"}  # healing
PROGRESS |= {"ClaimLent"}  # CAPM3 borrows the host's claim (chain/lifecycle.py)
PROGRESS |= {"SecretRerendered"}  # our unused Secret rendered again (chain/decide/verify.py)
PROGRESS |= {
    "SecretRestored",
    "ClaimReleased",
}  # our deleted Secret written again (chain/decide/repair.py)


@pytest.mark.parametrize("reason", list(Reason))
def test_reasons_are_camel_case_with_a_severity(reason: Reason) -> None:
    assert re.fullmatch(r"[A-Z][a-zA-Z]+", reason.value)
    expected = Severity.NORMAL if reason.value in PROGRESS else Severity.WARNING
    assert reason.severity is expected


def test_event_body_names_the_host_and_component() -> None:
    body = recorder.event_body(HOST, Reason.NO_TEMPLATE, "no template", "metal3-dhcpless")
    assert body["involvedObject"] == {
        "apiVersion": "metal3.io/v1alpha1",
        "kind": "BareMetalHost",
        "name": "host-0",
        "namespace": "metal3",
        "uid": "uid-1",
    }
    assert (body["type"], body["reason"], body["message"]) == (
        "Warning",
        "NoTemplate",
        "no template",
    )
    assert body["source"] == {"component": "metal3-dhcpless"}
    assert body["metadata"]["namespace"] == "metal3"


def test_same_decision_same_name_so_redeliveries_dedupe() -> None:
    def name(reason: Reason, message: str, host: HostRef = HOST) -> str:
        return str(recorder.event_body(host, reason, message, "c")["metadata"]["name"])

    assert name(Reason.CLAIM_FAILED, "m") == name(Reason.CLAIM_FAILED, "m")
    assert name(Reason.CLAIM_FAILED, "m") != name(Reason.CLAIM_FAILED, "other")
    assert name(Reason.CLAIM_FAILED, "m") != name(Reason.RENDER_FAILED, "m")
    assert name(Reason.CLAIM_FAILED, "m") != name(
        Reason.CLAIM_FAILED, "m", HostRef("metal3", "host-0", "uid-2")
    )


def test_long_messages_are_cut() -> None:
    body = recorder.event_body(HOST, Reason.RENDER_FAILED, "x" * 5000, "c")
    assert len(body["message"]) == recorder.MAX_MESSAGE
