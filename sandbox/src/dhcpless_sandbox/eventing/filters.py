"""Trigger filters (knative.md §c): which events a Trigger's subscriber gets.

Exists apart from the broker because it is pure and is the contract `eventing/triggers.yaml`
is checked against: the SubscriptionsAPI `filters` (exact, prefix, suffix, all, any, not;
ANDed; cesql unsupported) win over the legacy `filter.attributes` (exact match, ANDed, ""
meaning present and non-empty). Invalid specs raise ValueError, as the webhook rejects them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

Attributes = Mapping[str, Any]
Filter = Callable[[Attributes], bool]


def _text(value: Any) -> str:
    return value.isoformat() if isinstance(value, datetime) else str(value)


def _pairs(dialect: str, spec: Any) -> list[tuple[str, str]]:
    if not isinstance(spec, Mapping) or not spec:
        raise ValueError(f"filter dialect {dialect!r} needs a non-empty map")
    pairs = [(str(k), str(v)) for k, v in spec.items()]
    if any(not k or not v for k, v in pairs):
        raise ValueError(f"filter dialect {dialect!r}: empty attribute name or value")
    return pairs


def _string_filter(test: Callable[[str, str], bool], dialect: str, spec: Any) -> Filter:
    pairs = _pairs(dialect, spec)
    return lambda attrs: all(k in attrs and test(_text(attrs[k]), v) for k, v in pairs)


_STRING_DIALECTS: dict[str, Callable[[str, str], bool]] = {
    "exact": lambda actual, wanted: actual == wanted,
    "prefix": str.startswith,
    "suffix": str.endswith,
}


def subscriptions_filter(entry: Mapping[str, Any]) -> Filter:
    """One `filters[]` entry: exactly one dialect (`ValidateOneOf`); cesql is not supported."""
    if len(entry) != 1:
        raise ValueError(f"a filter must use exactly one dialect, got {sorted(entry)}")
    ((dialect, spec),) = entry.items()
    if dialect in _STRING_DIALECTS:
        return _string_filter(_STRING_DIALECTS[dialect], dialect, spec)
    if dialect in ("all", "any"):
        inner = [subscriptions_filter(item) for item in spec]
        combine = all if dialect == "all" else any
        return lambda attrs: combine(f(attrs) for f in inner)
    if dialect == "not":
        negated = subscriptions_filter(spec)
        return lambda attrs: not negated(attrs)
    raise ValueError(f"unsupported filter dialect {dialect!r}")


def attributes_filter(attributes: Mapping[str, str]) -> Filter:
    """Legacy `filter.attributes`: exact, ANDed; "" means present and non-empty."""
    wanted = dict(attributes)

    def match(attrs: Attributes) -> bool:
        return all(
            bool(attrs.get(k)) if v == "" else k in attrs and _text(attrs[k]) == v
            for k, v in wanted.items()
        )

    return match


def trigger_filter(spec: Mapping[str, Any]) -> Filter:
    """The filter of a Trigger `spec`: `filters` (ANDed) wins over `filter.attributes`."""
    if spec.get("filters"):
        entries = [subscriptions_filter(entry) for entry in spec["filters"]]
        return lambda attrs: all(f(attrs) for f in entries)
    return attributes_filter((spec.get("filter") or {}).get("attributes") or {})
