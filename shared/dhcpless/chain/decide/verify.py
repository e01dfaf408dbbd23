"""Verify: a waiting host is released only on a Secret that equals what its own claims render.

Anyone who may create Secrets in a served namespace can write one under our default name with
our labels and an ownerReference carrying the host's UID (readable from the host, or from any
Event about it): identity (`chain.identity`) then calls it ours. So identity is not enough to
release: the Secret's network data must be the render of the host's template with the addresses
of the host's own answered claims (issue 24, finding 1). The comparison is pure and is made in
the format the *template* asks for (`decide.formats`), never in the one the Secret declares, so
`nmstate-in-networkdata` gets the same rule as OpenStack data.

* data equal to the render: the release checks decide (`decide.release`);
* data different, Secret ours by identity: a `SecretUnverified` Warning, and the Secret is
  rendered again from the claims (`SecretRerendered`): the host has not used it yet (it is
  paused), so replacing it is safe, and a template edited between write and release no longer
  strands the host on an unused Secret of ours;
* not every claim has its address yet, or the render facts were not read (secret-readiness,
  on the Secret's own event: it reads the Secret and the host, nothing it would check them
  against): the Secret cannot be checked; a Warning, and the host stays paused until the
  claims' path (ipclaim-fulfilment, host-registration, resync) renders and compares;
* not ours by identity: a conflict (`identity.refusal`), never replaced.
"""

from __future__ import annotations

from collections.abc import Mapping

import yaml

from dhcpless.chain import identity
from dhcpless.chain.actions import Action, RecordEvent
from dhcpless.models import BareMetalHost, Secret
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef
from dhcpless.render.formats.base import load

Actions = tuple[Action, ...]


def matches(
    existing: Secret,
    texts: Mapping[str, str],
    records: Mapping[str, str] | None = None,
) -> bool:
    """Pure: `existing` holds the rendered `texts` (Secret key -> text: `networkData` and
    any other key the format writes), compared as data (JSON is YAML; unreadable data is no
    match), and the `records` we would write on it (annotation -> value, "" = absent): a
    record a re-claim trusts later (`decide.reclaim`) is checked like the data it describes."""
    annotations = existing.metadata.annotations
    if any(annotations.get(key, "") != value for key, value in (records or {}).items()):
        return False
    try:
        return all(load(existing.decoded(key) or "") == load(text) for key, text in texts.items())
    except (ValueError, yaml.YAMLError):
        return False


def mismatch(host: BareMetalHost, existing: Secret) -> RecordEvent:
    """The Warning for a Secret of ours whose data is not what the host's claims render."""
    message = (
        f"Secret {existing.metadata.name} does not hold what the host's claimed addresses and "
        "template render; not used, rendered again from the claims"
    )
    return RecordEvent(HostRef.of(host), Reason.SECRET_UNVERIFIED, message)


def unverifiable(host: BareMetalHost, existing: Secret) -> Actions:
    """A Secret found without the render to check it by: a conflict when it is not ours, else
    a Warning that it releases nothing until it equals the render (the host stays paused)."""
    refused = identity.refusal(HostRef.of(host), "Secret", existing.metadata)
    if refused is not None:
        return (refused,)
    message = (
        f"Secret {existing.metadata.name} was not written by the chain for this host, or not "
        "yet checked: it releases the host only once it equals what the host's claimed "
        "addresses and template render (the host stays paused)"
    )
    return (RecordEvent(HostRef.of(host), Reason.SECRET_UNVERIFIED, message),)
