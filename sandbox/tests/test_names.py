"""Name and label rules, table-driven against the facts of apimachinery's validators.

The messages are the real server's (k8s.io/apimachinery `pkg/api/validate/content`); kubectl
users read them, and tests here must refuse what a cluster refuses.
"""

from __future__ import annotations

import pytest

from dhcpless_sandbox.apiserver import names


@pytest.mark.parametrize(
    ("value", "errors"),
    [
        pytest.param("node-0", [], id="plain"),
        pytest.param("a" * 63, [], id="63-is-fine"),
        pytest.param("a" * 64, [names.max_len(63)], id="64-too-long"),
        pytest.param("a.b", ["must not contain dots"], id="dots"),
        pytest.param(
            "Node",
            [names.regex_error(names.LABEL_MSG, names.LABEL_FMT, "my-name", "123-abc")],
            id="upper-case",
        ),
    ],
)
def test_dns1123_label(value: str, errors: list[str]) -> None:
    assert names.dns1123_label(value) == errors


@pytest.mark.parametrize(
    ("key", "count"),
    [
        pytest.param("app", 0, id="plain"),
        pytest.param("example.com/role", 0, id="prefixed"),
        pytest.param("a/b/c", 1, id="two-slashes"),
        pytest.param("/x", 1, id="empty-prefix"),
        pytest.param("example.com/", 1, id="empty-name"),
        pytest.param("x" * 64, 1, id="name-too-long"),
        pytest.param("-x", 1, id="starts-with-dash"),
        pytest.param("Example.com/x", 1, id="upper-case-prefix"),
    ],
)
def test_label_keys(key: str, count: int) -> None:
    assert len(names.label_key(key)) == count


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        pytest.param("", True, id="empty"),
        pytest.param("v1.2_3-x", True, id="all-allowed-characters"),
        pytest.param("x" * 63, True, id="63"),
        pytest.param("x" * 64, False, id="64"),
        pytest.param("a b", False, id="space"),
        pytest.param("x-", False, id="ends-with-dash"),
    ],
)
def test_label_values(value: str, valid: bool) -> None:
    assert (names.label_value(value) == []) is valid


def test_label_causes_name_every_problem() -> None:
    causes = names.label_causes({"bad key": "x" * 64})
    assert [c.field for c in causes] == ["metadata.labels"] * 2
    assert causes[1].message == f'Invalid value: "{"x" * 64}": must be no more than 63 bytes'
