"""`act` posts the Events of what it wrote, even when a later write of the same decision fails.

The retry of a failed delivery decides again from what is there now: a Secret re-rendered just
before a failed release patch now matches, so the retry releases without deciding the
`SecretUnverified` Warning again. Seen as a flake of
`tests/scenarios/test_world_changes.py` under load (a 503 on the release patch).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace

import pytest

from dhcpless.chain import act as chain_act
from dhcpless.chain.actions import Action, DeleteIPClaim, RecordEvent
from dhcpless.errors import Transient
from dhcpless.kube.events import recorder
from dhcpless.models import BareMetalHost
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef

REF = HostRef("ns", "host-0", "uid-0")
HOST = BareMetalHost.model_validate(
    {"metadata": {"name": "host-0", "namespace": "ns", "uid": "uid-0"}, "spec": {}}
)
SETTINGS = SimpleNamespace(component="test", record_events=True, ramdisk_profile="glean-el9")


def _event(message: str) -> RecordEvent:
    return RecordEvent(REF, Reason.SECRET_UNVERIFIED, message)


def _write(name: str) -> DeleteIPClaim:
    return DeleteIPClaim("ns", name, REF)


DECISION: Sequence[Action] = (_event("a"), _write("w1"), _event("b"), _write("w2"), _event("c"))


@pytest.mark.parametrize(
    ("failing", "said"),
    [
        pytest.param(None, ["a", "b", "c"], id="all-written"),
        pytest.param("w2", ["a", "b"], id="second-write-fails"),
        pytest.param("w1", [], id="first-write-fails"),
    ],
)
def test_events_of_done_writes_are_posted(
    monkeypatch: pytest.MonkeyPatch, failing: str | None, said: list[str]
) -> None:
    posted: list[str] = []

    def perform(action: Action, kube: object) -> None:
        if isinstance(action, DeleteIPClaim) and action.name == failing:
            raise Transient("503")

    def record(kube: object, host: HostRef, reason: Reason, message: str, component: str) -> None:
        posted.append(message)

    monkeypatch.setattr(chain_act, "perform", perform)
    monkeypatch.setattr(recorder, "record", record)
    if failing is None:
        chain_act.act(DECISION, None, SETTINGS, HOST)  # type: ignore[arg-type]
    else:
        with pytest.raises(Transient):
            chain_act.act(DECISION, None, SETTINGS, HOST)  # type: ignore[arg-type]
    assert posted == said
