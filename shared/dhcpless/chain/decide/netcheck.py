"""Does network data hold up before any host boots with it? Checked twice, never skipped.

1. **Before we write a Secret** (the render path): `render_refusals` runs every pre-unpause rule
   of `dhcpless.render.validate` on the document just rendered, including the pool-overlap
   rule over the IPPools the IPPools gathered. A refusal means no Secret is written.
2. **Before a host is released** (whoever wrote the Secret, a user included): `problem` checks
   the shape (BMO reads `networkData` with a YAML parser, so JSON and YAML both pass), then
   `release_refusals` runs the same rules for the host that will boot it.

Both include the `ironic` rules (`render.validate_ironic`): BMO hands `networkData` unchanged to
Ironic as the node's `network_data`, and a document Ironic's schema refuses would leave the host
in `registering` with no error, so a user's Secret Ironic would refuse is never released either.
Each problem is one Warning Event (`InvalidNetworkData`) naming the rule and the link, network,
field or pool concerned; the host stays paused and nothing else is written. What is found in a
Secret is said by rule and JSON path only (`render.redact`): no value read from it is repeated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dhcpless import keys, render
from dhcpless.chain import identity
from dhcpless.chain.actions import RecordEvent
from dhcpless.chain.decide import formats
from dhcpless.chain.facts import Found
from dhcpless.models import BareMetalHost, IPPool, Secret
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef
from dhcpless.render import redact
from dhcpless.render.formats.base import load
from dhcpless.render.problem import Problem


def problem(secret: Secret) -> str | None:
    """None when the shape is usable, else a short reason naming the Secret (never its content)."""
    return inspect(secret)[0]


def inspect(secret: Secret) -> tuple[str | None, Any]:
    """`problem`, and the document as parsed for it (None when there is a problem): the
    release checks take it (`release_refusals`) instead of parsing the YAML a second time."""
    where = f"Secret {secret.metadata.namespace}/{secret.metadata.name}"
    try:
        text = secret.decoded(keys.NETWORK_DATA_KEY)
    except ValueError:  # bad base64 or not UTF-8
        return f"{where}: {keys.NETWORK_DATA_KEY} is not base64-encoded UTF-8", None
    if not text or not text.strip():
        return f"{where} has no {keys.NETWORK_DATA_KEY}", None
    trouble, document = formats.secret_format(secret).shape(text)
    return (None if trouble is None else f"{where}: {trouble}"), document


def release_refusals(
    host: BareMetalHost,
    secret: Secret,
    document: Any = None,
    profile: keys.RamdiskProfile = keys.DEFAULT_PROFILE,
) -> tuple[RecordEvent, ...]:
    """Pure. The Events that refuse releasing `host` with `secret` (empty: release it).

    Call only once `problem(secret)` is None; `document`: what `inspect` parsed (else parsed
    here). Pools are not listed here: a Secret we wrote
    passed the pool rule when rendered, and a user's Secret names no pool. nmstate under
    `networkData` was checked in its OpenStack form before it was written; here only its shape.
    """
    from dhcpless.render.validate import validate_network_data  # cold start: only when used

    foreign = formats.secret_format(secret).foreign
    if foreign is not None:
        if identity.standing(secret.metadata, HostRef.of(host)) is identity.Standing.OURS:
            return ()  # we wrote it for this host (labels and UID, not a label alone): its
            # OpenStack form passed every rule before it was written
        message = f"Secret {secret.metadata.name}: {foreign}"
        return (RecordEvent(HostRef.of(host), Reason.INVALID_NETWORK_DATA, message),)
    if document is None:
        document = load(secret.decoded(keys.NETWORK_DATA_KEY) or "")
    found = (
        validate_network_data(document, host, profile=profile)
        if isinstance(document, Mapping)
        else ()
    )
    return _events(host, f"Secret {secret.metadata.name}", redact.redacted_all(found))


def render_refusals(
    host: BareMetalHost,
    found: Found,
    document: Mapping[str, Any],
    pools: Sequence[IPPool],
    referenced: Sequence[render.PoolRef] = (),
    profile: keys.RamdiskProfile = keys.DEFAULT_PROFILE,
) -> tuple[RecordEvent, ...]:
    """Pure. The Events that refuse writing the Secret for `document` (empty: write it).

    For the render path (`chain.decide`): call it on the document `render_network_data`
    returned, before `WriteSecret`, with the IPPools gathered; return its
    Events instead of writing when it returns any. `referenced`: the pools the template
    references for the host, as gathered (empty: derived here).
    """
    from dhcpless.render.validate import validate_network_data  # cold start: only when used

    names = {p.name for p in referenced or _referenced(host, found)}
    mine = [p for p in pools if p.metadata.name in names]
    others = [p for p in pools if p.metadata.name not in names]
    problems = validate_network_data(document, host, mine, others, profile)
    return _events(host, f"network data from {found.ref}", problems)


def _referenced(host: BareMetalHost, found: Found) -> tuple[render.PoolRef, ...]:
    if found.template.network_data is None:
        return ()
    try:
        return render.referenced_pools(found.template.network_data, host)
    except render.RenderError:
        return ()  # reported by the render path itself


def _events(host: BareMetalHost, where: str, found: Sequence[Problem]) -> tuple[RecordEvent, ...]:
    ref = HostRef.of(host)
    return tuple(RecordEvent(ref, Reason.INVALID_NETWORK_DATA, f"{where}: {p}") for p in found)
