"""The sandbox's CEL engine on the expressions Kubernetes admission policies use.

Covers: what the library was chosen for (`has`, `in` on maps, the optional syntax `.?`/`[?]`
with `orValue`, string extensions, macros, `matches`, ternaries, Kubernetes' `Object{}` and
`JSONPatch{}` constructions, `jsonpatch.escapeKey`); compile errors and return-type errors worded
as kubernetes/apiserver words them; evaluation errors as "resulted in error"; and the rewrite of
typed constructions, which must leave string literals alone.
"""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless_sandbox.apiserver.cel import CelError, Returns, compile_expression
from dhcpless_sandbox.apiserver.cel_types import untyped

HOST: dict[str, Any] = {
    "metadata": {"name": "h1", "labels": {"rack": "r1"}, "annotations": {"a/b": "x"}},
    "spec": {"online": True, "macs": ["00:11", "00:22"]},
}
BINDINGS = {"object": HOST, "request": {"operation": "CREATE"}}


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        pytest.param("has(object.spec.online)", True, id="has"),
        pytest.param("'a/b' in object.metadata.annotations", True, id="in-map"),
        pytest.param("object.spec.?bootMode.orValue('UEFI')", "UEFI", id="optional-field"),
        pytest.param("object.metadata.labels[?'rack'].orValue('')", "r1", id="optional-index"),
        pytest.param("object.metadata.name.upperAscii()", "H1", id="strings-extension"),
        pytest.param("object.spec.macs.all(m, m.startsWith('00:'))", True, id="all-macro"),
        pytest.param("object.spec.macs.exists(m, m.endsWith('22'))", True, id="exists-macro"),
        pytest.param("object.metadata.name.matches('^h[0-9]+$')", True, id="matches"),
        pytest.param("request.operation == 'CREATE' ? 1 : 2", 1, id="ternary"),
        pytest.param(
            "Object{spec: Object.spec{online: false}}", {"spec": {"online": False}}, id="object"
        ),
        pytest.param(
            "[JSONPatch{op: 'remove', path: '/spec'}]",
            [{"op": "remove", "path": "/spec"}],
            id="json-patch",
        ),
        pytest.param("jsonpatch.escapeKey('a/b~c')", "a~1b~0c", id="escape-key"),
    ],
)
def test_kubernetes_policy_expressions(expression: str, expected: object) -> None:
    assert compile_expression(expression).evaluate(BINDINGS) == expected


@pytest.mark.parametrize(
    ("expression", "returns", "detail"),
    [
        pytest.param(
            "object.x ==",
            Returns.BOOL,
            "compilation failed: ERROR: <input>:1:12: Syntax error",
            id="syntax",
        ),
        pytest.param(
            "undeclared.x",
            Returns.ANY,
            "compilation failed: ERROR: <input>:1:11: undeclared reference to 'undeclared.x'",
            id="undeclared",
        ),
        pytest.param(
            "'text'", Returns.BOOL, "must evaluate to bool but got string", id="return-type"
        ),
    ],
)
def test_compile_errors_read_like_upstream(expression: str, returns: Returns, detail: str) -> None:
    with pytest.raises(CelError) as caught:
        compile_expression(expression, returns)
    assert caught.value.detail.startswith(detail)


def test_evaluation_error_names_the_expression() -> None:
    with pytest.raises(CelError) as caught:
        compile_expression("object.spec.missing").evaluate(BINDINGS)
    assert caught.value.detail.startswith("expression 'object.spec.missing' resulted in error: ")


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        pytest.param("Object{a: 1}", '{"a": 1}', id="object"),
        pytest.param("Object.spec{a: x, b: [1, 2]}", '{"a": x,"b": [1, 2]}', id="nested-type"),
        pytest.param(
            "'Object{a: 1}' + \"JSONPatch{b: 2}\"",
            "'Object{a: 1}' + \"JSONPatch{b: 2}\"",
            id="strings-untouched",
        ),
        pytest.param("{'a': f(x, y)}", "{'a': f(x, y)}", id="plain-map-untouched"),
        pytest.param("myObject{a: 1}", "myObject{a: 1}", id="other-type-untouched"),
    ],
)
def test_typed_constructions_become_maps(expression: str, expected: str) -> None:
    assert untyped(expression) == expected
