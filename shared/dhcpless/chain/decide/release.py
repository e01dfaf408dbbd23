"""Release: point the host at its Secret and remove our pause, once the Secret the host uses
(or will use) holds valid network data (DESIGN §3: never point a host at a Secret before it
holds valid data). Whoever wrote the Secret, a user included, it passes the same checks."""

from __future__ import annotations

from dhcpless import keys
from dhcpless.chain import identity
from dhcpless.chain.actions import Action, RecordEvent, ReleaseHost
from dhcpless.chain.decide import corner, messages, netcheck, profiles, quiet
from dhcpless.chain.gate import Gate, gate, secret_name
from dhcpless.chain.predicates import on_host, ownership
from dhcpless.models import BareMetalHost, Secret
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef

Actions = tuple[Action, ...]


def event(host: BareMetalHost, reason: Reason, message: str) -> RecordEvent:
    return RecordEvent(HostRef.of(host), reason, message)


def decide_release(
    host: BareMetalHost, secret: Secret | None, fleet: keys.RamdiskProfile = keys.DEFAULT_PROFILE
) -> Actions:
    """Unpause once the Secret the host uses (or will use) holds valid network data for the
    ramdisk that boots it (`fleet`'s, unless our Secret records the template's)."""
    state = gate(host)
    if not state.ours:
        return ()
    named = state is Gate.NAMED
    name = host.spec.preprovisioning_network_data_name if named else secret_name(host)
    if named and on_host.bad_name(name or ""):
        return corner.decide_name(host, name or "")
    if secret is not None and secret.metadata.name != name:
        return ()  # a Secret this host does not use
    if secret is None:  # a host-named Secret: one wording whatever the cause (`messages`)
        return messages.named_unusable(host, name) if named else ()
    refused_secret = (
        None if named else identity.refusal(HostRef.of(host), "Secret", secret.metadata)
    )
    if refused_secret is not None:  # our default name, not written by us for this host
        return (refused_secret,)
    trouble, document = netcheck.inspect(secret)  # the YAML parsed once for both checks
    if trouble is not None:
        if named:
            return messages.named_unusable(host, name)
        return (event(host, Reason.SECRET_INVALID, trouble),)
    profile = profiles.secret_profile(host, secret, fleet)
    refused = netcheck.release_refusals(host, secret, document, profile)
    if refused:  # valid shape, but the ramdisk could not use it: stay paused, say why
        return messages.named_unusable(host, name) if named else refused
    version = host.metadata.resource_version or ""
    claimed = _claimed(named, secret, host.namespace)
    release = ReleaseHost(
        HostRef.of(host), name, not named, version, claimed, quiet.mark(host), bool(host.labels)
    )
    return (release, event(host, Reason.HOST_RELEASED, f"network data in Secret {name}"))


def _claimed(named: bool, secret: Secret, namespace: str) -> str:
    """The pools our Secret's data came from, copied onto the host as resync's hint of where
    to look (`ownership.recorded`; what it re-claims is read from the Secret itself); a Secret
    the user named carries no claims of ours, and a malformed record is not copied."""
    text = "" if named else secret.metadata.annotations.get(keys.CLAIMED_POOLS_ANNOTATION, "")
    return text if ownership.parse(text, namespace) is not None else ""
