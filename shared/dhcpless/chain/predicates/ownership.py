"""Pure predicates on claim ownership: which host a claim of ours serves (its labels), and
which claims a host holds, by the record we wrote and can verify (`trusted`) or by the hint on
the host (`recorded`). Why the record, not the hint, decides: `decide.reclaim`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from dhcpless import keys
from dhcpless.chain import identity
from dhcpless.chain.predicates.on_host import released
from dhcpless.models import BareMetalHost, IPAddressClaim, IPClaim, Secret
from dhcpless.refs import HostRef


def selector(namespace: str, name: str) -> str:
    """Our labels for the host (namespace, name): a label-scoped LIST of its claims."""
    return (
        f"{keys.HOST_LABEL}={name},{keys.HOST_NAMESPACE_LABEL}={namespace},"
        f"{keys.MANAGED_BY_LABEL}={keys.MANAGED_BY_VALUE}"
    )


def host_of(claim: IPClaim | IPAddressClaim) -> tuple[str, str] | None:
    """(namespace, name) of the host a claim of ours (IPAM's or CAPI's) serves, from its labels."""
    labels = claim.metadata.labels
    if labels.get(keys.MANAGED_BY_LABEL) != keys.MANAGED_BY_VALUE or keys.HOST_LABEL not in labels:
        return None
    namespace = labels.get(keys.HOST_NAMESPACE_LABEL) or claim.metadata.namespace or "default"
    return namespace, labels[keys.HOST_LABEL]


Record = tuple[str, tuple[str, ...]]
"""A host's recorded claims: (namespace, pool names)."""


def record_text(namespace: str, pools: tuple[str, ...]) -> str:
    """`keys.CLAIMED_POOLS_ANNOTATION`'s value for claims of `pools` in `namespace`."""
    return ",".join(f"{namespace}/{pool}" for pool in pools)


def addresses_text(addresses: Mapping[str, str]) -> str:
    """`keys.CLAIMED_ADDRESSES_ANNOTATION`'s value: `<pool>=<address>` for each pool."""
    return ",".join(f"{pool}={address}" for pool, address in sorted(addresses.items()) if address)


def parse(text: str, namespace: str) -> Record | None:
    """Pure: the record, or None when absent, malformed or not in `namespace` (the host's:
    our claims live there, so a record naming another namespace is not ours to act on)."""
    entries = [e.partition("/") for e in text.split(",")] if text else []
    if not entries or any(not ns or not sep or not pool for ns, sep, pool in entries):
        return None
    if {ns for ns, _, _ in entries} != {namespace}:
        return None
    return namespace, tuple(sorted({pool for _, _, pool in entries}))


def parse_addresses(text: str) -> dict[str, str]:
    """Pure: pool -> address from `addresses_text`; a malformed entry is left out."""
    pairs = (e.partition("=") for e in text.split(",")) if text else ()
    return {pool: address for pool, sep, address in pairs if pool and sep and address}


def recorded(host: BareMetalHost) -> Record | None:
    """Pure: the hint on a released host of the claims it holds (where resync looks; None: no
    usable hint). Never what is created: that is `trusted`."""
    if not released(host):
        return None
    return parse(host.annotations.get(keys.CLAIMED_POOLS_ANNOTATION, ""), host.namespace)


@dataclass(frozen=True, slots=True)
class Trusted:
    """The record on the host's own Secret: its claims' pools and the address each gave."""

    namespace: str
    pools: tuple[str, ...]
    addresses: Mapping[str, str] = field(default_factory=dict)


def trusted(host: BareMetalHost, secret: Secret | None) -> Trusted | None:
    """Pure: the record of a released host's own Secret (the one it names, with our labels
    and its UID), in the host's namespace; None when there is no such Secret or record."""
    if not released(host) or secret is None:
        return None
    meta = secret.metadata
    if meta.name != host.spec.preprovisioning_network_data_name:
        return None
    if not identity.made_for(meta, HostRef.of(host)):
        return None
    record = parse(meta.annotations.get(keys.CLAIMED_POOLS_ANNOTATION, ""), host.namespace)
    if record is None:
        return None
    addresses = parse_addresses(meta.annotations.get(keys.CLAIMED_ADDRESSES_ANNOTATION, ""))
    return Trusted(record[0], record[1], addresses)


def missing(
    host: BareMetalHost, held: tuple[IPClaim, ...], pools: tuple[str, ...] | None = None
) -> tuple[str, ...]:
    """Pure: the pools (default: the host's hint) without a live claim of this very host among
    `held` (listed by our labels in the host's namespace). One under the name that is not
    (another host's, a predecessor's, a terminating one) counts as missing: `decide` reports
    it, never uses it."""
    if pools is None:
        record = recorded(host)
        pools = () if record is None else record[1]
    ref = HostRef.of(host)
    ours = {
        c.metadata.name
        for c in held
        if identity.standing(c.metadata, ref) is identity.Standing.OURS
    }
    return tuple(p for p in pools if f"{host.name}-{p}" not in ours)


def wants_record(host: BareMetalHost, held: tuple[IPClaim, ...] | None, gone: bool) -> bool:
    """Pure: a re-claim may be due, so the host's Secret (its trusted record) must be read."""
    return released(host) and (gone or (held is not None and bool(missing(host, held))))
