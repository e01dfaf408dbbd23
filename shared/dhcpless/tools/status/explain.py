"""`dhcpless status NAMESPACE/NAME`: why one host is held back, told to whoever may know why.

The Events on a host never say what is wrong inside a Secret the host names
(`chain.decide.messages`): an Event reader may not be allowed to read that Secret. Its owner
still has to learn which rule refused it, so this command reads the Secret with the caller's
own credentials and re-runs the release checks the functions ran (`chain.decide.netcheck`, the
rules of `render.validate`). A caller the API server lets read the Secret is shown each
refusal with its JSON path, rule and way out; a caller it refuses is told so, and shown only
what the Events already say. Nothing here writes anything, and nothing goes into an Event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from kubernetes.client.exceptions import ApiException

from dhcpless import keys
from dhcpless.chain.decide import formats, netcheck
from dhcpless.chain.gate import Gate, gate, secret_name
from dhcpless.errors import DhcplessError, Gone
from dhcpless.models import BareMetalHost, Secret
from dhcpless.render.problem import Problem

GetSecret = Callable[[str, str], Secret]


class Access(StrEnum):
    """What the caller's credentials got when reading the Secret."""

    READ = "read"
    FORBIDDEN = "forbidden"
    MISSING = "missing"
    NOT_NEEDED = "not needed"
    """The host is not held back by a Secret (not paused for us)."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One refusal: where in `networkData` (a JSON path), which rule, and how to get past it."""

    rule: str
    path: str
    message: str
    way_out: str


@dataclass(frozen=True, slots=True)
class SecretReport:
    namespace: str
    name: str
    access: Access
    findings: tuple[Finding, ...] = field(default=())


def read_secret(kube_get: GetSecret, namespace: str, name: str) -> tuple[Access, Secret | None]:
    """The Secret as the caller's credentials read it: 403 and 404 are answers, not errors.

    `kube_get` is `Kube.get_secret`: the adapter turns a 403 into `ApiUnavailable` (for the
    functions a missing Role is a deploy bug), so the status code is taken from its cause."""
    try:
        return Access.READ, kube_get(namespace, name)
    except Gone:
        return Access.MISSING, None
    except DhcplessError as err:
        cause = err.__cause__
        if isinstance(cause, ApiException) and cause.status in (401, 403):
            return Access.FORBIDDEN, None
        raise


def secret_in_use(host: BareMetalHost) -> str | None:
    """The Secret the functions would release the host with, or None when none holds it."""
    state = gate(host)
    if not state.ours:
        return None
    if state is Gate.NAMED:
        return host.spec.preprovisioning_network_data_name
    return secret_name(host)


def findings(host: BareMetalHost, secret: Secret) -> tuple[Finding, ...]:
    """Pure: every reason the release checks give for not releasing `host` with `secret`,
    unredacted (the caller could read the Secret); empty when the Secret would be released."""
    from dhcpless.render.validate import validate_network_data  # heavy: only when used

    trouble, document = netcheck.inspect(secret)
    if trouble is not None:
        return (Finding("document", keys.NETWORK_DATA_KEY, trouble, _SHAPE_WAY_OUT),)
    if formats.secret_format(secret).foreign is not None:  # not judged by the rules here
        refused = netcheck.release_refusals(host, secret, document)
        return tuple(Finding("nmstate", keys.NETWORK_DATA_KEY, e.message, "") for e in refused)
    if not isinstance(document, Mapping):
        return (Finding("document", keys.NETWORK_DATA_KEY, "not a mapping", _SHAPE_WAY_OUT),)
    return tuple(_finding(p) for p in validate_network_data(document, host))


_SHAPE_WAY_OUT = (
    f"store OpenStack network_data.json (an object with links, networks and services) under "
    f"the key {keys.NETWORK_DATA_KEY}"
)


def _finding(problem: Problem) -> Finding:
    rule = problem.check or str(problem.rule)
    path = problem.path or keys.NETWORK_DATA_KEY
    way_out = f"change {path} in {keys.NETWORK_DATA_KEY} so that rule {rule} holds"
    if rule.endswith("network-id"):
        way_out = f"give {path} a string (any name for that network): Ironic requires it"
    return Finding(rule, path, _bare(problem.message, path, rule), way_out)


def _bare(message: str, path: str, rule: str) -> str:
    """The message without the path and rule it repeats (both are printed beside it)."""
    message = message.removeprefix(f"{path}: ").removesuffix(f" (rule {rule})")
    return message


def report(kube_get: GetSecret, host: BareMetalHost) -> SecretReport | None:
    """What the caller may learn about the Secret holding `host` back (None: none does)."""
    name = secret_in_use(host)
    if name is None:
        return None
    access, secret = read_secret(kube_get, host.namespace, name)
    found = findings(host, secret) if secret is not None else ()
    return SecretReport(host.namespace, name, access, found)


def lines(host: BareMetalHost, secret: SecretReport | None) -> list[str]:
    """The explanation as text, one refusal per paragraph."""
    if secret is None:
        return ["  no Secret holds this host back (it is not paused for us)"]
    where = f"Secret {secret.namespace}/{secret.name}"
    source = "spec.preprovisioningNetworkDataName" if gate(host) is Gate.NAMED else "ours"
    head = f"  {where} ({source}):"
    if secret.access is Access.FORBIDDEN:
        return [
            f"{head} your credentials may not read it, so what is wrong in it is not shown;",
            "  run this command with a kubeconfig that can read it (e.g. its owner's)",
        ]
    if secret.access is Access.MISSING and source == "ours":
        return [f"{head} not written yet: the functions write it once the template renders"]
    if secret.access is Access.MISSING:
        return [f"{head} not found; create it with the key {keys.NETWORK_DATA_KEY}"]
    if not secret.findings:
        return [f"{head} passes every release check; the next event on it releases the host"]
    out = [f"{head} refused by {len(secret.findings)} check(s):"]
    for f in secret.findings:
        out += [f"  - {f.path}: {f.message}", f"    rule: {f.rule}"]
        out += [f"    way out: {f.way_out}"] if f.way_out else []
    return out
