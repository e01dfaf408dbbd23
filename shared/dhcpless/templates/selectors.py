"""CAPM3's hostSelector semantics on one host's labels (pure), for `dhcpless.templates.resolve`.

matchLabels are equality requirements; matchExpressions operators are lower-cased and then
read as Kubernetes selector operators (cluster-api-provider-metal3
`baremetal/metal3machine_manager.go` `hostLabelSelectorForMachine`, apimachinery
`pkg/selection` operators); keys and values are checked as `labels.NewRequirement` does; an
empty selector matches every host; an unknown operator is an error.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from dhcpless.models.templates import HostSelector, LabelSelectorRequirement

_DNS_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
_LABEL_NAME = re.compile(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")
_INTEGER = re.compile(r"[+-]?[0-9]+")


class ResolveError(ValueError):
    """A reference annotation or a hostSelector that can never be valid.

    `broken`: (Metal3MachineTemplate name, its own problem) for each template that caused it,
    so the problem is reported on the template too, once per template, not per host."""

    def __init__(self, message: str, broken: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(message)
        self.broken = broken


def _check_label_key(key: str) -> None:
    prefix, _, name = key.rpartition("/")
    bad_prefix = bool(prefix) and (len(prefix) > 253 or not _DNS_SUBDOMAIN.fullmatch(prefix))
    if bad_prefix or len(name) > 63 or not _LABEL_NAME.fullmatch(name):
        raise ResolveError(f"invalid label key {key!r}")


def _check_values(req: LabelSelectorRequirement, operator: str) -> None:
    counts = {"in": "+", "notin": "+", "exists": "0", "!": "0"}
    need = counts.get(operator, "1")
    values = req.values
    if (
        (need == "+" and not values)
        or (need == "0" and values)
        or (need == "1" and len(values) != 1)
    ):
        raise ResolveError(f"operator {req.operator!r} on key {req.key!r}: wrong number of values")
    if operator in ("gt", "lt") and not _INTEGER.fullmatch(values[0]):
        raise ResolveError(
            f"operator {req.operator!r} on key {req.key!r}: value must be an integer"
        )
    for value in values:
        if len(value) > 63 or (value and not _LABEL_NAME.fullmatch(value)):
            raise ResolveError(f"invalid label value {value!r} for key {req.key!r}")


_OPERATORS = frozenset({"in", "notin", "exists", "!", "=", "==", "!=", "gt", "lt"})


def _requirement_matches(req: LabelSelectorRequirement, labels: Mapping[str, str]) -> bool:
    operator = req.operator.lower()
    if operator not in _OPERATORS:
        raise ResolveError(f"operator {req.operator!r} is not recognized")
    _check_label_key(req.key)
    _check_values(req, operator)
    has, value = req.key in labels, labels.get(req.key, "")
    if operator in ("in", "=", "=="):
        return has and value in req.values
    if operator in ("notin", "!="):
        return not has or value not in req.values
    if operator in ("exists", "!"):
        return has == (operator == "exists")
    if not has or not _INTEGER.fullmatch(value):
        return False
    return int(value) > int(req.values[0]) if operator == "gt" else int(value) < int(req.values[0])


def _requirements(selector: HostSelector) -> list[LabelSelectorRequirement]:
    equalities = [
        LabelSelectorRequirement(key=key, operator="=", values=(value,))
        for key, value in selector.match_labels.items()
    ]
    return [*equalities, *selector.match_expressions]


def selector_matches(selector: HostSelector, labels: Mapping[str, str]) -> bool:
    """CAPM3's hostLabelSelectorForMachine, applied to one host's labels."""
    results = [_requirement_matches(req, labels) for req in _requirements(selector)]
    return all(results)


def ruled_out(selector: HostSelector, labels: Mapping[str, str]) -> bool:
    """Some valid requirement does not match: the AND is false, whatever the broken ones say."""
    for req in _requirements(selector):
        try:
            if not _requirement_matches(req, labels):
                return True
        except ResolveError:
            continue
    return False
