"""Template resolution: the reference annotation first, then CAPM3-style hostSelectors."""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless.keys import TEMPLATE_REFERENCE_ANNOTATION
from dhcpless.models import BareMetalHost, Metal3MachineTemplate
from dhcpless.models.refs import TemplateKind, TemplateRef
from dhcpless.templates.resolve import (
    Ambiguous,
    Candidate,
    NoTemplate,
    Resolution,
    Resolved,
    Via,
    resolve_template,
)
from dhcpless.templates.selectors import ResolveError

from .hosts import make_host

GROUP = "infrastructure.cluster.x-k8s.io"


def m3mt(
    name: str,
    selector: dict[str, Any] | None = None,
    template: str | None = "dt",
    namespace: str = "ns",
    template_namespace: str | None = None,
) -> Metal3MachineTemplate:
    spec: dict[str, Any] = {}
    if selector is not None:
        spec["hostSelector"] = selector
    if template is not None:
        spec["dataTemplate"] = {"name": template, "namespace": template_namespace}
    obj = {"metadata": {"name": name, "namespace": namespace}, "spec": {"template": {"spec": spec}}}
    return Metal3MachineTemplate.from_k8s(obj)


def ref(name: str = "dt", namespace: str = "ns", kind: TemplateKind | None = None) -> TemplateRef:
    return TemplateRef(kind or TemplateKind.METAL3_DATA_TEMPLATE, GROUP, name, namespace)


def expr(key: str, operator: str, *values: str) -> dict[str, Any]:
    return {"matchExpressions": [{"key": key, "operator": operator, "values": list(values)}]}


def annotated(value: str) -> BareMetalHost:
    return make_host(annotations={TEMPLATE_REFERENCE_ANNOTATION: value}, labels={"rack": "r1"})


HOST = make_host(labels={"rack": "r1", "gen": "7", "role": "worker"})
NO_MATCH = NoTemplate(
    f"no {TEMPLATE_REFERENCE_ANNOTATION} annotation, and of the Metal3MachineTemplates "
    "in namespace ns none selects this host"
)

CASES = [
    pytest.param(
        annotated(f"metal3datatemplates.{GROUP}/t1"),
        [m3mt("a", {})],
        Resolved(ref("t1"), Via.ANNOTATION),
        id="annotation: Metal3DataTemplate wins over selectors",
    ),
    pytest.param(
        annotated(f"metal3preprovisioningdatatemplates.{GROUP}/t2"),
        [],
        Resolved(ref("t2", kind=TemplateKind.METAL3_PREPROVISIONING_DATA_TEMPLATE), Via.ANNOTATION),
        id="annotation: Metal3PreprovisioningDataTemplate",
    ),
    pytest.param(annotated("metal3datatemplates.example.com/t1"), [], ResolveError, id="bad group"),
    pytest.param(annotated(f"secrets.{GROUP}/t1"), [], ResolveError, id="bad plural"),
    pytest.param(annotated(f"metal3datatemplates.{GROUP}/"), [], ResolveError, id="no name"),
    pytest.param(annotated(f"metal3datatemplates.{GROUP}/T_1"), [], ResolveError, id="bad name"),
    pytest.param(annotated("t1"), [], ResolveError, id="bare name"),
    pytest.param(HOST, [], NO_MATCH, id="no Metal3MachineTemplates"),
    pytest.param(HOST, [m3mt("a")], Resolved(ref(), Via.HOST_SELECTOR, ("a",)), id="no selector"),
    pytest.param(
        HOST, [m3mt("a", {})], Resolved(ref(), Via.HOST_SELECTOR, ("a",)), id="empty selector"
    ),
    pytest.param(
        HOST,
        [m3mt("a", {"matchLabels": {"rack": "r1"}})],
        Resolved(ref(), Via.HOST_SELECTOR, ("a",)),
        id="matchLabels match",
    ),
    pytest.param(
        HOST, [m3mt("a", {"matchLabels": {"rack": "r2"}})], NO_MATCH, id="matchLabels mismatch"
    ),
    pytest.param(
        HOST,
        [m3mt("a", expr("rack", "In", "r0", "r1"))],
        Resolved(ref(), Via.HOST_SELECTOR, ("a",)),
        id="In, capitalised",
    ),
    pytest.param(HOST, [m3mt("a", expr("rack", "NotIn", "r1"))], NO_MATCH, id="NotIn excludes"),
    pytest.param(
        HOST,
        [m3mt("a", expr("zone", "notin", "z"))],
        Resolved(ref(), Via.HOST_SELECTOR, ("a",)),
        id="notin matches an absent key",
    ),
    pytest.param(
        HOST,
        [m3mt("a", expr("role", "Exists"))],
        Resolved(ref(), Via.HOST_SELECTOR, ("a",)),
        id="Exists",
    ),
    pytest.param(
        HOST,
        [m3mt("a", expr("zone", "!"))],
        Resolved(ref(), Via.HOST_SELECTOR, ("a",)),
        id="! (does not exist)",
    ),
    pytest.param(HOST, [m3mt("a", expr("role", "DoesNotExist"))], ResolveError, id="DoesNotExist"),
    pytest.param(HOST, [m3mt("a", expr("role", "pancakes", "x"))], ResolveError, id="pancakes"),
    pytest.param(HOST, [m3mt("a", expr("role", "In"))], ResolveError, id="In without values"),
    pytest.param(HOST, [m3mt("a", expr("role", "Exists", "x"))], ResolveError, id="Exists+value"),
    pytest.param(HOST, [m3mt("a", expr("gen", "Gt", "x"))], ResolveError, id="Gt non-integer"),
    pytest.param(
        HOST,
        [m3mt("a", expr("gen", "Gt", "6")), m3mt("b", expr("gen", "Lt", "7"))],
        Resolved(ref(), Via.HOST_SELECTOR, ("a",)),
        id="Gt and Lt compare integers",
    ),
    pytest.param(HOST, [m3mt("a", expr("rack", "gt", "1"))], NO_MATCH, id="gt on a word label"),
    pytest.param(
        HOST,
        [m3mt("a", {"matchLabels": {"rack": "r1"}, **expr("gen", "!=", "7")})],
        NO_MATCH,
        id="requirements are ANDed",
    ),
    pytest.param(HOST, [m3mt("a", namespace="other")], NO_MATCH, id="other namespace ignored"),
    pytest.param(
        HOST,
        [m3mt("a", template_namespace="ns")],
        Resolved(ref(), Via.HOST_SELECTOR, ("a",)),
        id="explicit dataTemplate namespace, the template's own",
    ),
    pytest.param(
        HOST,
        [m3mt("a", template_namespace="tmpl")],
        ResolveError,
        id="dataTemplate in another namespace is refused",
    ),
    pytest.param(
        HOST,
        [m3mt("b"), m3mt("a")],
        Resolved(ref(), Via.HOST_SELECTOR, ("a", "b")),
        id="several matches naming one template",
    ),
    pytest.param(
        HOST,
        [m3mt("b", template="dt2"), m3mt("a")],
        Ambiguous((Candidate("a", ref()), Candidate("b", ref("dt2")))),
        id="ambiguous",
    ),
    pytest.param(
        HOST,
        [m3mt("a", template=None)],
        NoTemplate(
            f"no {TEMPLATE_REFERENCE_ANNOTATION} annotation, and of the Metal3MachineTemplates "
            "in namespace ns none names a dataTemplate"
        ),
        id="match without dataTemplate",
    ),
]


@pytest.mark.parametrize(("host", "templates", "expected"), CASES)
def test_resolve_template(
    host: BareMetalHost,
    templates: list[Metal3MachineTemplate],
    expected: Resolution | type[ResolveError],
) -> None:
    if expected is ResolveError:
        with pytest.raises(ResolveError):
            resolve_template(host, templates)
    else:
        assert resolve_template(host, templates) == expected


def test_selector_errors_name_the_machine_template() -> None:
    with pytest.raises(ResolveError, match="Metal3MachineTemplate bad: operator 'pancakes'"):
        resolve_template(HOST, [m3mt("bad", expr("role", "pancakes", "x"))])
