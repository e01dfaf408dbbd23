"""Names and labels the way the real server checks them, with its messages.

Facts from k8s.io/apimachinery: `pkg/api/validate/content/dns.go` (`IsDNS1123Label`,
`IsDNS1123Subdomain`), `kube.go` (`IsLabelKey`, `IsLabelValue`), `errors.go` (`MaxLenError`,
`RegexError`) and `pkg/api/validation/objectmeta.go` (`ValidateLabels`: every bad key or value
is a `metadata.labels` Invalid cause). A label value of 64 characters is refused by a cluster;
the sandbox must refuse it too, or tests pass here that fail there.
"""

from __future__ import annotations

import re
from typing import Any

from dhcpless_sandbox.apiserver.status import Cause

LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
SUBDOMAIN_FMT = LABEL_FMT + "(\\." + LABEL_FMT + ")*"
KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
VALUE_FMT = "(" + KEY_FMT + ")?"
LABEL_MSG = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
    "and must start and end with an alphanumeric character"
)
SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character"
)
KEY_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character"
)
VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character"
)


def max_len(length: int) -> str:
    return f"must be no more than {length} bytes"


def regex_error(message: str, fmt: str, *examples: str) -> str:
    shown = " or ".join(f"'{e}'" for e in examples)
    return f"{message} (e.g. {shown}, regex used for validation is '{fmt}')"


def _matches(fmt: str, value: str) -> bool:
    return re.fullmatch(fmt, value) is not None


def dns1123_label(value: str) -> list[str]:
    errors = [max_len(63)] if len(value) > 63 else []
    if _matches(LABEL_FMT, value):
        return errors
    if _matches(SUBDOMAIN_FMT, value):
        return [*errors, "must not contain dots"]
    return [*errors, regex_error(LABEL_MSG, LABEL_FMT, "my-name", "123-abc")]


def dns1123_subdomain(value: str) -> list[str]:
    errors = [max_len(253)] if len(value) > 253 else []
    if not _matches(SUBDOMAIN_FMT, value):
        errors.append(regex_error(SUBDOMAIN_MSG, SUBDOMAIN_FMT, "example.com"))
    return errors


def label_key(value: str) -> list[str]:
    parts = value.split("/")
    if len(parts) > 2:
        key = regex_error(KEY_MSG, KEY_FMT, "MyName", "my.name", "123-abc")
        return [
            f"a valid label key {key} with an optional DNS subdomain prefix and '/' "
            "(e.g. 'example.com/MyName')"
        ]
    errors: list[str] = []
    if len(parts) == 2:
        prefix = parts[0]
        messages = dns1123_subdomain(prefix) if prefix else ["must be non-empty"]
        errors += [f"prefix part {m}" for m in messages]
    name = parts[-1]
    if not name:
        return [*errors, "name part must be non-empty"]
    if len(name) > 63:
        errors.append(f"name part {max_len(63)}")
    if not _matches(KEY_FMT, name):
        errors.append("name part " + regex_error(KEY_MSG, KEY_FMT, "MyName", "my.name", "123-abc"))
    return errors


def label_value(value: str) -> list[str]:
    errors = [max_len(63)] if len(value) > 63 else []
    if not _matches(VALUE_FMT, value):
        errors.append(regex_error(VALUE_MSG, VALUE_FMT, "MyValue", "my_value", "12345"))
    return errors


def _invalid(path: str, value: str, message: str) -> Cause:
    return Cause("FieldValueInvalid", f'Invalid value: "{value}": {message}', path)


def label_causes(labels: Any) -> list[Cause]:
    """Every problem of `metadata.labels`, keys first, as `ValidateLabels` lists them."""
    out: list[Cause] = []
    for key, value in (labels or {}).items():
        out += [_invalid("metadata.labels", key, m) for m in label_key(key)]
        out += [_invalid("metadata.labels", value, m) for m in label_value(str(value))]
    return out


def name_causes(name: str, namespace_like: bool, path: str = "metadata.name") -> list[Cause]:
    """`NameIsDNSLabel` for Namespaces, `NameIsDNSSubdomain` for everything else we serve."""
    messages = dns1123_label(name) if namespace_like else dns1123_subdomain(name)
    return [_invalid(path, name, m) for m in messages]
