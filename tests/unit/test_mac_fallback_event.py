"""The `fromHostInterface` -> `bootMACAddress` fallback is said in an Event (issue 14, finding
10): the NetworkDataRendered Event names the link, the NIC the template asked for, the MAC
used and why; a template that needs no fallback says nothing of the kind."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from dhcpless.chain.actions import RecordEvent
from dhcpless.chain.decide import decide
from tests.support import objects

from .test_functions_decide import facts, found


def _with_mac(mac: dict[str, str]) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(objects.NO_POOLS)
    data["links"]["ethernets"][0]["macAddress"] = mac
    return data


@pytest.mark.parametrize(
    ("mac", "said"),
    [
        pytest.param(
            {"fromHostInterface": "eno1"},
            f"link eth0: fromHostInterface 'eno1' taken as bootMACAddress {objects.MAC} "
            "(the host is not inspected yet and the template has one ethernet link)",
            id="fallback-said",
        ),
        pytest.param({"string": objects.MAC}, None, id="mac-given-nothing-said"),
    ],
)
def test_the_rendered_event_says_which_mac_was_used_and_why(
    mac: dict[str, str], said: str | None
) -> None:
    actions = decide(facts(found(_with_mac(mac))))
    events = [a for a in actions if isinstance(a, RecordEvent)]
    (rendered,) = [e for e in events if e.reason.value == "NetworkDataRendered"]
    if said is None:
        assert "bootMACAddress" not in rendered.message
    else:
        assert rendered.message.endswith("; " + said)
