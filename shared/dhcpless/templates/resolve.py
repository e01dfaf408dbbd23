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

A broken Metal3MachineTemplate fails small. Its selector may hold a requirement CAPM3's
selector code refuses though the CRD allows it (`DoesNotExist`: CAPM3 lower-cases operators,
cluster-api-provider-metal3 `baremetal/metal3machine_manager.go` `hostLabelSelectorForMachine`,
and only `!` means "does not exist"), or name a `dataTemplate` in another namespace (refused
here: our claims and Secrets could have no owner reference there, so an address would leak).
It blocks exactly the hosts it *could* match: CAPM3 ANDs the requirements, so one valid
requirement that does not match the host rules the template out for that host whatever the
broken ones say; otherwise the host waits with a Warning naming the template, and the
template gets the same Warning (`chain.lookup`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from dhcpless import names
from dhcpless.keys import CAPM3_GROUP, TEMPLATE_REFERENCE_ANNOTATION
from dhcpless.models.bmh import BareMetalHost
from dhcpless.models.refs import TemplateKind, TemplateRef
from dhcpless.models.templates import Metal3MachineTemplate
from dhcpless.templates.selectors import ResolveError, ruled_out, selector_matches


class Via(StrEnum):
    ANNOTATION = "annotation"
    HOST_SELECTOR = "hostSelector"


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


def _candidate(m3mt: Metal3MachineTemplate) -> Candidate | None:
    ref = m3mt.data_template
    if ref is None:
        return None
    home = m3mt.metadata.namespace or "default"
    problem = names.name_problem(ref.name)  # `.` would turn the GET into a LIST (`names`)
    if problem is not None:
        raise ResolveError(f"dataTemplate {problem}")
    if ref.namespace and ref.namespace != home:
        raise ResolveError(
            f"dataTemplate {ref.namespace}/{ref.name} is in another namespace than the "
            f"Metal3MachineTemplate ({home}): refused"
        )
    target = TemplateRef(TemplateKind.METAL3_DATA_TEMPLATE, CAPM3_GROUP, ref.name, home)
    return Candidate(m3mt.metadata.name, target)


def _selects(m3mt: Metal3MachineTemplate, host: BareMetalHost) -> bool:
    """Whether it selects the host; ResolveError if it is broken and could select it."""
    try:
        selected = selector_matches(m3mt.host_selector, host.labels)
    except ResolveError:
        if ruled_out(m3mt.host_selector, host.labels):
            return False
        raise
    if selected:
        _candidate(m3mt)  # a refused dataTemplate blocks the hosts it selects
    return selected


def _matching(
    host: BareMetalHost, m3mts: Iterable[Metal3MachineTemplate]
) -> list[Metal3MachineTemplate]:
    """The templates that select the host; ResolveError naming every broken one that could."""
    same_ns = [m for m in m3mts if (m.metadata.namespace or "default") == host.namespace]
    matched, broken = [], []
    for m3mt in same_ns:
        try:
            if _selects(m3mt, host):
                matched.append(m3mt)
        except ResolveError as err:
            broken.append((m3mt.metadata.name, str(err)))
    if broken:
        text = "; ".join(f"Metal3MachineTemplate {name}: {why}" for name, why in broken)
        raise ResolveError(text, tuple(broken))
    return matched


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
