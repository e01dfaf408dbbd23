"""Which template applies to a host (pure): the BMH annotation first, else hostSelectors.

1. The annotation `baremetalhost.metal3.io/preprovisioningnetworkdata-reference` with
   value `<plural>.<group>/<name>` names the template directly (revised design); the
   template lives in the host's namespace.
2. Otherwise every Metal3MachineTemplate in the host's namespace whose
   `spec.template.spec.hostSelector` matches the host's labels, with CAPM3's semantics
   (matchLabels are equality requirements; matchExpressions operators are lower-cased
   and then read as Kubernetes selector operators; an empty selector matches every
   host; an unknown operator is an error), is followed to its `dataTemplate`
   (namespace defaults to the Metal3MachineTemplate's).

Several matches naming the same template resolve to it; different templates are
Ambiguous, and the host waits for a human (or the annotation) to decide.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from dhcpless.keys import CAPM3_GROUP, TEMPLATE_REFERENCE_ANNOTATION
from dhcpless.models.bmh import BareMetalHost
from dhcpless.models.templates import HostSelector, LabelSelectorRequirement, Metal3MachineTemplate


class ResolveError(ValueError):
    """A reference annotation or a hostSelector that can never be valid."""


class TemplateKind(StrEnum):
    """Resource plurals a host may point at; the value is what the annotation spells."""

    METAL3_DATA_TEMPLATE = "metal3datatemplates"
    METAL3_PREPROVISIONING_DATA_TEMPLATE = "metal3preprovisioningdatatemplates"

    @property
    def kind(self) -> str:
        """The object kind, e.g. `Metal3DataTemplate`."""
        if self is TemplateKind.METAL3_DATA_TEMPLATE:
            return "Metal3DataTemplate"
        return "Metal3PreprovisioningDataTemplate"


class Via(StrEnum):
    ANNOTATION = "annotation"
    HOST_SELECTOR = "hostSelector"


@dataclass(frozen=True, order=True, slots=True)
class TemplateRef:
    plural: TemplateKind
    group: str
    name: str
    namespace: str

    def __str__(self) -> str:
        return f"{self.plural.value}.{self.group}/{self.namespace}/{self.name}"


@dataclass(frozen=True, slots=True)
class Resolved:
    ref: TemplateRef
    via: Via
    machine_templates: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NoTemplate:
    reason: str


@dataclass(frozen=True, order=True, slots=True)
class Candidate:
    machine_template: str
    template: TemplateRef


@dataclass(frozen=True, slots=True)
class Ambiguous:
    candidates: tuple[Candidate, ...]


Resolution = Resolved | NoTemplate | Ambiguous

_DNS_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
_LABEL_NAME = re.compile(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")
_INTEGER = re.compile(r"[+-]?[0-9]+")


def parse_template_reference(value: str, namespace: str) -> TemplateRef:
    """`<plural>.<group>/<name>` → TemplateRef in `namespace`; anything else is an error."""
    resource, _, name = value.strip().partition("/")
    plural, _, group = resource.partition(".")
    if group != CAPM3_GROUP or plural not in set(TemplateKind):
        raise ResolveError(
            f"annotation {TEMPLATE_REFERENCE_ANNOTATION}={value!r}: expected "
            f"metal3datatemplates.{CAPM3_GROUP}/<name> or "
            f"metal3preprovisioningdatatemplates.{CAPM3_GROUP}/<name>"
        )
    if len(name) > 253 or not _DNS_SUBDOMAIN.fullmatch(name):
        raise ResolveError(
            f"annotation {TEMPLATE_REFERENCE_ANNOTATION}={value!r}: {name!r} is not a valid name"
        )
    return TemplateRef(TemplateKind(plural), group, name, namespace)


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


def selector_matches(selector: HostSelector, labels: Mapping[str, str]) -> bool:
    """CAPM3's hostLabelSelectorForMachine, applied to one host's labels."""
    equalities = [
        LabelSelectorRequirement(key=key, operator="=", values=(value,))
        for key, value in selector.match_labels.items()
    ]
    requirements = [*equalities, *selector.match_expressions]
    results = [_requirement_matches(req, labels) for req in requirements]
    return all(results)


def _candidate(m3mt: Metal3MachineTemplate) -> Candidate | None:
    ref = m3mt.data_template
    if ref is None:
        return None
    namespace = ref.namespace or m3mt.metadata.namespace or "default"
    target = TemplateRef(TemplateKind.METAL3_DATA_TEMPLATE, CAPM3_GROUP, ref.name, namespace)
    return Candidate(m3mt.metadata.name, target)


def _matching(
    host: BareMetalHost, m3mts: Iterable[Metal3MachineTemplate]
) -> list[Metal3MachineTemplate]:
    def selects(m3mt: Metal3MachineTemplate) -> bool:
        try:
            return selector_matches(m3mt.host_selector, host.labels)
        except ResolveError as err:
            raise ResolveError(f"Metal3MachineTemplate {m3mt.metadata.name}: {err}") from err

    same_ns = [m for m in m3mts if (m.metadata.namespace or "default") == host.namespace]
    return [m for m in same_ns if selects(m)]


def _by_selector(host: BareMetalHost, m3mts: Iterable[Metal3MachineTemplate]) -> Resolution:
    matched = _matching(host, m3mts)
    candidates = sorted(c for c in map(_candidate, matched) if c is not None)
    if not candidates:
        detail = "none names a dataTemplate" if matched else "none selects this host"
        return NoTemplate(
            f"no {TEMPLATE_REFERENCE_ANNOTATION} annotation, and of the "
            f"Metal3MachineTemplates in namespace {host.namespace} {detail}"
        )
    if len({c.template for c in candidates}) > 1:
        return Ambiguous(tuple(candidates))
    names = tuple(c.machine_template for c in candidates)
    return Resolved(candidates[0].template, Via.HOST_SELECTOR, names)


def resolve_template(
    host: BareMetalHost, machine_templates: Iterable[Metal3MachineTemplate]
) -> Resolution:
    """The template for `host`; raises ResolveError for an invalid annotation or selector."""
    value = host.annotations.get(TEMPLATE_REFERENCE_ANNOTATION)
    if value is not None:
        return Resolved(parse_template_reference(value, host.namespace), Via.ANNOTATION)
    return _by_selector(host, machine_templates)
