"""Names and label values derived from a host, at the API's limits (issue 14, finding 3).

Each derived name at host-name lengths 63/64/233/234/253/254, judged by the sandbox API
server's own rules (`sandbox.apiserver.names`, apimachinery's `IsDNS1123Subdomain` and
`IsValidLabelValue`), an implementation separate from `dhcpless.names`: a name we write is one
the API accepts, or the host is refused before anything is written.
"""

from __future__ import annotations

from typing import Any, cast

import pytest

from dhcpless import keys, names
from dhcpless.chain.gather import lookup
from dhcpless.chain.predicates import derived
from dhcpless.kube.api.client import Kube
from dhcpless.models import BareMetalHost
from dhcpless.reasons import Reason
from dhcpless.render import PoolRef
from dhcpless_sandbox.apiserver import names as api_rules

LENGTHS = [63, 64, 233, 234, 253, 254]
BY_LENGTH = [pytest.param(n, id=f"host-{n}") for n in LENGTHS]


def _host(length: int, tail: str = "") -> str:
    """A valid-looking host name of `length` characters (dots and dashes inside)."""
    body = ("node-1.rack-2." * 30)[: length - len(tail) - 1] + "x" + tail
    assert len(body) == length
    return body


@pytest.mark.parametrize("length", BY_LENGTH)
def test_the_secret_name_always_fits_and_is_unchanged_while_it_can_be(length: int) -> None:
    host = _host(length)
    name = names.secret_name(host)
    assert api_rules.dns1123_subdomain(name) == []
    plain = host + keys.SECRET_NAME_SUFFIX
    assert (name == plain) is (api_rules.dns1123_subdomain(plain) == [])
    assert name == names.secret_name(host)  # deterministic


def test_long_hosts_sharing_a_prefix_get_different_secret_names() -> None:
    one, two = _host(250, "a"), _host(250, "b")
    assert one[:-1] == two[:-1]
    assert names.secret_name(one) != names.secret_name(two)


@pytest.mark.parametrize("length", BY_LENGTH)
def test_the_event_name_always_fits(length: int) -> None:
    host, digest = _host(length), "0123456789abcdef" * 4
    name = names.event_name(host, digest)
    assert api_rules.dns1123_subdomain(name) == []
    assert name.endswith("." + digest[: names.DIGEST_CHARS])
    assert (name == f"{host}.{digest[: names.DIGEST_CHARS]}") is (len(host) <= 236)


@pytest.mark.parametrize(
    "host",
    [
        pytest.param("a" * 235 + "-" + "b" * 17, id="dash-at-the-cut"),
        pytest.param("a." * 126 + "a", id="dot-at-the-cut"),
    ],
)
def test_a_truncated_event_name_never_ends_a_label_with_a_dash_or_dot(host: str) -> None:
    assert api_rules.dns1123_subdomain(host) == []
    assert api_rules.dns1123_subdomain(names.event_name(host, "f" * 16)) == []


@pytest.mark.parametrize("length", BY_LENGTH)
def test_the_host_label_value_fits_or_the_host_is_refused(length: int) -> None:
    host = _host(length)
    problem = names.host_name_problem(host)
    assert (problem is None) is (api_rules.label_value(host) == [])
    if problem is not None:
        assert keys.HOST_LABEL in problem and f"at most {names.LABEL_MAX}" in problem


@pytest.mark.parametrize("length", BY_LENGTH)
def test_a_claim_name_is_never_shortened_and_too_long_is_refused(length: int) -> None:
    """`<host>-<pool>` is what CAPM3 GETs: a 20-character host, the pool making up the rest."""
    host = "h" * 20
    pool = _host(length - len(host) - 1)
    claim = names.claim_name(host, pool)
    assert claim == f"{host}-{pool}" and len(claim) == length
    problem = names.host_name_problem(host, [pool])
    assert (problem is None) is (api_rules.dns1123_subdomain(claim) == [])
    if problem is not None:
        assert f"{length} characters, above 253" in problem and "<host>-<pool>" in problem


@pytest.mark.parametrize(
    ("host", "pool", "reason"),
    [
        pytest.param("h", "pool4", None, id="fits"),
        pytest.param("h" * 64, "pool4", Reason.NAME_TOO_LONG, id="host-label-too-long"),
        pytest.param("h" * 63, "p" * 190, Reason.NAME_TOO_LONG, id="claim-too-long"),
        pytest.param("h", "../x", Reason.INVALID_TEMPLATE, id="pool-dotdot"),
        pytest.param("h", "Pool4", Reason.INVALID_TEMPLATE, id="pool-upper-case"),
        pytest.param("h", "a/b", Reason.INVALID_TEMPLATE, id="pool-slash"),
    ],
)
def test_checked_refuses_before_any_claim(host: str, pool: str, reason: Reason | None) -> None:
    found = derived.checked(host, "tmpl", (PoolRef(pool),))
    got = getattr(found, "reason", None)
    assert got == reason
    assert (found == (PoolRef(pool),)) is (reason is None)


class _NoRequests:
    """A Kube whose every call fails the test: a request was made that must not be."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"unexpected API call {name}")


@pytest.mark.parametrize(
    ("length", "asks"), [pytest.param(63, True, id="63"), pytest.param(64, False, id="64")]
)
def test_no_label_selected_list_for_a_host_name_no_label_can_hold(length: int, asks: bool) -> None:
    """A released host with a long name (it named its own Secret) reaches hang detection and
    the IP lifecycle: their claim LIST would select on a label value the API refuses (400)."""
    host = BareMetalHost.from_k8s(
        {
            "apiVersion": "metal3.io/v1alpha1",
            "kind": "BareMetalHost",
            "metadata": {"name": _host(length), "namespace": "ns", "uid": "u"},
            "spec": {},
        }
    )
    kube = cast(Kube, _NoRequests())
    if asks:
        with pytest.raises(AssertionError, match="list_claims"):
            lookup.host_claims(kube, host, "ns")
        return
    assert lookup.host_claims(kube, host, "ns") == {}
