"""Gather the typed state one host needs, through the adapter, scoped to that host.

Template lookup problems (none, ambiguous, invalid, missing) are *results*, not exceptions:
they become Warning Events while the host stays paused. Transient API errors propagate.
"""

from __future__ import annotations

from dataclasses import dataclass

from dhcpless import keys, names, resolve
from dhcpless.chain import identity
from dhcpless.errors import Gone, InvalidInput, Transient
from dhcpless.keys import EVENT_REPORTING_COMPONENT
from dhcpless.kube import recorder
from dhcpless.kube.client import Kube
from dhcpless.kube.recorder import Reason
from dhcpless.kube.refs import HostRef
from dhcpless.models import (
    BareMetalHost,
    IPAddress,
    IPClaim,
    Metal3MachineTemplate,
    NetworkTemplate,
    Secret,
)


@dataclass(frozen=True, slots=True)
class Found:
    """The template that applies to the host."""

    ref: resolve.TemplateRef
    template: NetworkTemplate


@dataclass(frozen=True, slots=True)
class Problem:
    """Why no template can be used now (becomes an Event; the host stays paused)."""

    reason: Reason
    message: str


TemplateLookup = Found | Problem


def template_for(kube: Kube, host: BareMetalHost) -> TemplateLookup:
    """Annotation first (no LIST), else the Metal3MachineTemplates of the host's namespace."""
    m3mts = _machine_templates(kube, host)
    try:
        resolution = resolve.resolve_template(host, m3mts)
    except resolve.ResolveError as err:
        _report_broken(kube, m3mts, err.broken)
        return Problem(Reason.INVALID_TEMPLATE, str(err))
    if isinstance(resolution, resolve.NoTemplate):
        return Problem(Reason.NO_TEMPLATE, resolution.reason)
    if isinstance(resolution, resolve.Ambiguous):
        return Problem(Reason.AMBIGUOUS_TEMPLATE, _ambiguity(resolution))
    return _fetch(kube, resolution.ref)


def _report_broken(
    kube: Kube, m3mts: list[Metal3MachineTemplate], broken: tuple[tuple[str, str], ...]
) -> None:
    """A broken template's Warning on the template itself (`resolve`: it fails small). The
    message names no host, so the Event's name is the same for every host it blocks: one
    Event per template and problem, however many hosts (`kube.recorder` deduplicates)."""
    why = dict(broken)
    for m3mt in m3mts:
        if m3mt.metadata.name in why:
            ref = HostRef(
                m3mt.metadata.namespace or "default", m3mt.metadata.name,
                m3mt.metadata.uid or "", m3mt.api_version, m3mt.kind,
            )  # fmt: skip
            text = f"{why[m3mt.metadata.name]}; hosts it could select stay paused"
            recorder.record(kube, ref, Reason.INVALID_TEMPLATE, text, EVENT_REPORTING_COMPONENT)


def _machine_templates(kube: Kube, host: BareMetalHost) -> list[Metal3MachineTemplate]:
    if keys.TEMPLATE_REFERENCE_ANNOTATION in host.annotations:
        return []
    return kube.list_machine_templates(host.namespace)


def fetch(kube: Kube, ref: resolve.TemplateRef) -> TemplateLookup:
    """The template a claim recorded (`chain.fastpath`): one GET, problems as results."""
    return _fetch(kube, ref)


def _fetch(kube: Kube, ref: resolve.TemplateRef) -> TemplateLookup:
    try:
        return Found(ref, kube.get_template(ref))
    except Gone:
        return Problem(
            Reason.NO_TEMPLATE, f"{ref.plural.kind} {ref.namespace}/{ref.name} not found"
        )
    except InvalidInput as err:  # the template's shape (ModelError) or a 400 from the API
        return Problem(Reason.INVALID_TEMPLATE, err.reason)


def _ambiguity(ambiguous: resolve.Ambiguous) -> str:
    names = ", ".join(
        f"{c.machine_template} -> {c.template.namespace}/{c.template.name}"
        for c in ambiguous.candidates
    )
    return f"several Metal3MachineTemplates select this host with different templates: {names}"


def host_claims(kube: Kube, host: BareMetalHost, namespace: str) -> dict[str, IPClaim]:
    """Our claims for this host in `namespace`, by pool name (one LIST, label-scoped). Only
    claims of this very host count (`chain.identity`): a predecessor's under the same name,
    terminating or not, is not ours; `decide_claims` reports it when creating ours finds it.
    A host name no label can hold has no claims of ours, and its selector would be a 400."""
    if not names.fits_label(host.name):
        return {}
    selector = (
        f"{keys.HOST_LABEL}={host.name},{keys.HOST_NAMESPACE_LABEL}={host.namespace},"
        f"{keys.MANAGED_BY_LABEL}={keys.MANAGED_BY_VALUE}"
    )
    claims = kube.list_claims(namespace, selector)
    ref = HostRef.of(host)
    return {
        c.spec.pool.name: c
        for c in claims
        if c.metadata.name == claim_name(host, c)
        and identity.standing(c.metadata, ref) is identity.Standing.OURS
    }


def claim_name(host: BareMetalHost, claim: IPClaim) -> str:
    return f"{host.name}-{claim.spec.pool.name}"


def addresses(kube: Kube, claims: dict[str, IPClaim]) -> dict[str, IPAddress]:
    """The IPAddress of every fulfilled claim, by pool (the claim's namespace, as IPAM puts it)."""
    found: dict[str, IPAddress] = {}
    for pool, claim in sorted(claims.items()):
        ref = claim.status.address
        if ref is not None and ref.name:
            namespace = ref.namespace or claim.metadata.namespace or "default"
            found[pool] = _address(kube, namespace, ref.name)
    return found


def _address(kube: Kube, namespace: str, name: str) -> IPAddress:
    """A claim names its IPAddress only after IPAM created it: absence is a lag, retry."""
    try:
        return kube.get_address(namespace, name)
    except Gone:
        raise Transient(f"IPAddress {namespace}/{name} not found yet") from None


def secret_or_none(kube: Kube, namespace: str, name: str) -> Secret | None:
    try:
        return kube.get_secret(namespace, name)
    except Gone:
        return None
