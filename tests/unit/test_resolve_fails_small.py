"""A broken Metal3MachineTemplate blocks only the hosts it could match (issue 14, finding 10).

Before: one template whose selector CAPM3's code refuses (`DoesNotExist`, allowed by the CRD)
made resolution fail for every selector-matched host of the namespace. Now a valid requirement
that does not match rules the broken template out (requirements are ANDed); a host it could
match waits, and the error names exactly the broken templates (reported on themselves by
`chain.gather.lookup`). A dataTemplate in another namespace is refused the same way.
"""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless.models import BareMetalHost, Metal3MachineTemplate
from dhcpless.templates.resolve import Resolved, Via, resolve_template
from dhcpless.templates.selectors import ResolveError

from .hosts import make_host
from .test_resolve import m3mt, ref

WORKER = make_host(labels={"role": "worker", "rack": "r1"})
CONTROL = make_host(labels={"role": "control", "rack": "r1"})


def _broken(role: str, template: str = "dt-broken") -> Metal3MachineTemplate:
    """A template for `role` hosts with a requirement CAPM3's selector code refuses."""
    selector: dict[str, Any] = {
        "matchLabels": {"role": role},
        "matchExpressions": [{"key": "retired", "operator": "DoesNotExist", "values": []}],
    }
    return m3mt("broken", selector, template=template)


GOOD = m3mt("good", {"matchLabels": {"role": "control"}})


@pytest.mark.parametrize(
    ("host", "templates", "expected"),
    [
        pytest.param(
            CONTROL, [_broken("worker"), GOOD], Resolved(ref(), Via.HOST_SELECTOR, ("good",)),
            id="ruled-out-by-a-valid-requirement",
        ),
        pytest.param(
            WORKER, [_broken("worker"), GOOD], ("broken",), id="could-match-blocks-the-host"
        ),
        pytest.param(
            CONTROL, [m3mt("far", {"matchLabels": {"role": "control"}}, template_namespace="x")],
            ("far",), id="cross-namespace-data-template",
        ),
        pytest.param(
            WORKER, [m3mt("far", {"matchLabels": {"role": "control"}}, template_namespace="x")],
            None, id="cross-namespace-but-not-selected",
        ),
        pytest.param(
            CONTROL, [m3mt("dot", {"matchLabels": {"role": "control"}}, template="..")],
            ("dot",), id="data-template-named-dotdot",
        ),
    ],
)  # fmt: skip
def test_a_broken_template_blocks_only_the_hosts_it_could_match(
    host: BareMetalHost, templates: list[Metal3MachineTemplate], expected: object
) -> None:
    if isinstance(expected, tuple):
        with pytest.raises(ResolveError) as raised:
            resolve_template(host, templates)
        assert tuple(name for name, _ in raised.value.broken) == expected
        assert all(f"Metal3MachineTemplate {n}:" in str(raised.value) for n in expected)
    elif expected is None:
        assert not isinstance(resolve_template(host, templates), Resolved)
    else:
        assert resolve_template(host, templates) == expected
