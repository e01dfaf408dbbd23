"""Names the Kubernetes API accepts, checked before they reach a URL.

A name becomes a path segment (`.../secrets/<name>`): `.` and `..` are normalised away by
HTTP clients and servers, so GET `secrets/.` turns into a LIST of every Secret and `..` into a
GET of the namespace, both refused by our Roles (403 -> 503, retried for ever) instead of
being refused as input. The API server never stores such names: custom resources and Secrets
must be DNS-1123 subdomains (kubernetes/apiextensions-apiserver
`pkg/registry/customresource/validator.go` `customResourceValidator.Validate`, with
`validation.NameIsDNSSubdomain`; kubernetes `pkg/apis/core/validation` `ValidateSecretName`)
and namespaces DNS-1123 labels (apimachinery `pkg/util/validation/validation.go`
`IsDNS1123Subdomain`, `IsDNS1123Label`). So a name that is not one is input we will never
accept (400), never a request to send.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Final

from dhcpless import keys

SUBDOMAIN_MAX: Final = 253
LABEL_MAX: Final = 63
_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_SUBDOMAIN_RE: Final = re.compile(rf"{_LABEL}(\.{_LABEL})*")
_LABEL_RE: Final = re.compile(_LABEL)


def name_problem(name: str) -> str | None:
    """Why `name` cannot name an object we read or write, or None when it can."""
    if len(name) > SUBDOMAIN_MAX or not _SUBDOMAIN_RE.fullmatch(name):
        return f"name {_shown(name)} is not a DNS-1123 subdomain"
    return None


def namespace_problem(namespace: str) -> str | None:
    """Why `namespace` cannot be a namespace, or None when it can."""
    if len(namespace) > LABEL_MAX or not _LABEL_RE.fullmatch(namespace):
        return f"namespace {_shown(namespace)} is not a DNS-1123 label"
    return None


# --- names and label values derived from a host (issue 14, finding 3) -----------------------
# The limits are apimachinery's `pkg/util/validation/validation.go`: `IsDNS1123Subdomain`
# (253 bytes, object names: Secrets, Events, IPClaims, IPAddressClaims) and `IsValidLabelValue`
# (63 bytes). One rule per derived name, decided here and documented in README "Names derived
# from a host":
# * label value `keys.HOST_LABEL` = the host's name: every function finds the host a claim or
#   Secret serves by reading it back, so it cannot be hashed: a longer name keeps the host paused.
# * claim names `<host>-<pool>`: a contract with CAPM3 (`baremetal/metal3data_manager.go`
#   `ensureM3IPClaim` GETs exactly that name): never shortened; too long keeps the host paused.
# * the Secret name `<host>-preprov-networkdata`: only we derive it (BMO reads it from the host's
#   spec), so a name too long is shortened with a hash of the whole host name.
# * Event names `<host>.<digest>`: only uniqueness matters, so the host part is truncated.

DIGEST_CHARS: Final = 16
"""Hex characters of an Event name's digest."""
HASH_CHARS: Final = 10
"""Hex characters of the hash that shortens a Secret name."""


def claim_name(host: str, pool: str) -> str:
    """`<host>-<pool>`, exactly: CAPM3 finds the claim by this name, so it is never shortened."""
    return f"{host}-{pool}"


def secret_name(host: str) -> str:
    """`<host>` + `keys.SECRET_NAME_SUFFIX`, shortened deterministically when over 253."""
    whole = host + keys.SECRET_NAME_SUFFIX
    if len(whole) <= SUBDOMAIN_MAX:
        return whole
    tag = "-" + _hash(host, HASH_CHARS) + keys.SECRET_NAME_SUFFIX
    return _trimmed(host, SUBDOMAIN_MAX - len(tag)) + tag


def event_name(host: str, digest: str) -> str:
    """`<host>.<digest>`, the host part truncated so the name stays a DNS-1123 subdomain."""
    tail = "." + digest[:DIGEST_CHARS]
    return _trimmed(host, SUBDOMAIN_MAX - len(tail)) + tail


def host_name_problem(host: str, pools: Iterable[str] = ()) -> str | None:
    """Why a host cannot be served under the names we derive from it, or None.

    Pure: the label value first (it bounds everything else), then each `<host>-<pool>`."""
    if len(host) > LABEL_MAX:
        return (
            f"host name is {len(host)} characters: label {keys.HOST_LABEL} takes at most "
            f"{LABEL_MAX}; host stays paused"
        )
    for pool in pools:
        if len(claim := claim_name(host, pool)) > SUBDOMAIN_MAX:
            return (
                f"claim name {_shown(claim)} would be {len(claim)} characters, above "
                f"{SUBDOMAIN_MAX}; CAPM3 looks it up as <host>-<pool>; host stays paused"
            )
    return None


def fits_label(value: str) -> bool:
    """Whether `value` can be a label value (length; our host names are subdomains already)."""
    return len(value) <= LABEL_MAX


def pool_name_problem(pool: str) -> str | None:
    """Why a pool name from a template cannot be claimed or looked up, or None."""
    problem = name_problem(pool)
    return None if problem is None else f"pool {problem}"


def _trimmed(name: str, room: int) -> str:
    """The first `room` characters, never ending in `-` or `.` (a label must end alphanumeric)."""
    return name[:room].rstrip("-.")


def _hash(value: str, chars: int) -> str:
    return hashlib.sha256(value.encode()).hexdigest()[:chars]


def _shown(value: str) -> str:
    """Bounded and quoted: a hostile name must not make the answer or the log line long."""
    return repr(value[:64] + ("..." if len(value) > 64 else ""))
