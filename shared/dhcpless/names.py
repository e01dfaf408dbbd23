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

import re
from typing import Final

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


def _shown(value: str) -> str:
    """Bounded and quoted: a hostile name must not make the answer or the log line long."""
    return repr(value[:64] + ("..." if len(value) > 64 else ""))
