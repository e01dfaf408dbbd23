"""`dhcpless kn-commands`: the rendered manifests as `kn` commands, where kn can say them exactly.

The deploy guide's `kn` steps drifted from the manifests when they were written by hand, so they
are generated: give it what `kubectl kustomize <overlay>` prints and it prints a shell script
that creates the same objects. kn creates an object only when its flags can express every field
the manifest sets (read in knative/client): `kn broker create` (`pkg/commands/broker/create.go`,
`delivery_option_flags.go`: class, retry, backoff, dead-letter sink) and `kn source apiserver
create` (`pkg/commands/source/apiserver/flags.go`: a resource's selector can only be
`matchLabels`). kn sets no labels, so a `kubectl label` follows each kn command. Everything else
(RBAC, the CRD, Services with a security context, Triggers with `filters`, a PingSource with a
`contentType`, a source with `matchExpressions`) is applied with kubectl, each with the reason.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

Obj = dict[str, Any]

BROKER_CLASS = "eventing.knative.dev/broker.class"
_SINK_PREFIX = {("eventing.knative.dev/v1", "Broker"): "broker"}
_SINK_PREFIX[("serving.knative.dev/v1", "Service")] = "ksvc"
_DELIVERY_FLAGS = {"retry": "--retry", "backoffPolicy": "--backoff-policy"}
_DELIVERY_FLAGS |= {"backoffDelay": "--backoff-delay", "timeout": "--timeout"}


class NotExpressible(ValueError):
    """kn has no flag for a field this object sets; the reason names it."""


@dataclass
class Plan:
    """What kn creates (argv lists), what kubectl applies, and why kubectl."""

    kn: list[list[str]] = field(default_factory=list)
    kubectl: list[Obj] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)


def _sink(destination: Obj) -> str:
    ref = destination.get("ref") or {}
    prefix = _SINK_PREFIX.get((str(ref.get("apiVersion")), str(ref.get("kind"))))
    if prefix is None or set(destination) != {"ref"} or set(ref) - {"apiVersion", "kind", "name"}:
        raise NotExpressible(f"sink {destination} is not a broker or ksvc reference")
    return f"{prefix}:{ref['name']}"


def _only(obj: Obj, path: str, allowed: Iterable[str]) -> None:
    extra = set(obj) - set(allowed)
    if extra:
        raise NotExpressible(f"kn has no flag for {path}.{sorted(extra)[0]}")


def _broker(obj: Obj) -> list[str]:
    spec, meta = obj.get("spec") or {}, obj["metadata"]
    _only(spec, "spec", ["delivery"])
    _only(meta.get("annotations") or {}, "metadata.annotations", [BROKER_CLASS])
    delivery = spec.get("delivery") or {}
    _only(delivery, "spec.delivery", [*_DELIVERY_FLAGS, "deadLetterSink"])
    argv = ["kn", "broker", "create", meta["name"]]
    if BROKER_CLASS in (meta.get("annotations") or {}):
        argv += ["--class", meta["annotations"][BROKER_CLASS]]
    for key, flag in _DELIVERY_FLAGS.items():
        argv += [flag, str(delivery[key])] if key in delivery else []
    if "deadLetterSink" in delivery:
        argv += ["--dl-sink", _sink(delivery["deadLetterSink"])]
    return argv


def _resource(entry: Obj) -> str:
    _only(entry, "spec.resources[]", ["apiVersion", "kind", "selector"])
    selector = entry.get("selector") or {}
    _only(selector, "spec.resources[].selector", ["matchLabels"])
    labels = ",".join(f"{k}={v}" for k, v in (selector.get("matchLabels") or {}).items())
    return f"{entry['kind']}:{entry['apiVersion']}" + (f":{labels}" if labels else "")


def _apiserversource(obj: Obj) -> list[str]:
    spec = obj["spec"]
    _only(spec, "spec", ["mode", "serviceAccountName", "resources", "sink"])
    _only(obj["metadata"].get("annotations") or {}, "metadata.annotations", [])
    argv = ["kn", "source", "apiserver", "create", obj["metadata"]["name"]]
    argv += ["--mode", spec["mode"]] if "mode" in spec else []
    for entry in spec.get("resources") or []:
        argv += ["--resource", _resource(entry)]
    if "serviceAccountName" in spec:
        argv += ["--service-account", spec["serviceAccountName"]]
    return [*argv, "--sink", _sink(spec["sink"])]


KN_BUILDERS: dict[tuple[str, str], Callable[[Obj], list[str]]] = {
    ("eventing.knative.dev/v1", "Broker"): _broker,
    ("sources.knative.dev/v1", "ApiServerSource"): _apiserversource,
}
"""The kinds kn may create, by (apiVersion, kind)."""

UNEXPRESSIBLE = {
    "Service": "kn service create has no flag for automountServiceAccountToken or "
    "readOnlyRootFilesystem (knative/client pkg/commands/service)",
    "Trigger": "kn trigger create --filter writes exact `filter.attributes` only, not `filters`",
    "PingSource": "kn source ping create has no flag for spec.contentType "
    "(knative/client pkg/commands/source/ping/flags.go)",
}
"""Why kn cannot create a kind it knows; any other kind is not kn's at all."""

RESOURCE_OF = {"Broker": "broker", "ApiServerSource": "apiserversource"}
"""kubectl's resource name for each kind kn creates (for the `kubectl label` after it)."""


def plan(objects: Iterable[Obj]) -> Plan:
    """Split the rendered objects into kn commands and kubectl-applied objects."""
    result = Plan()
    for obj in objects:
        build = KN_BUILDERS.get((obj.get("apiVersion", ""), obj.get("kind", "")))
        try:
            if build is None:
                kind = obj.get("kind", "")
                raise NotExpressible(UNEXPRESSIBLE.get(kind, "kn does not create this kind"))
            argv = build(obj)
        except NotExpressible as why:
            result.kubectl.append(obj)
            if "knative.dev/" in obj.get("apiVersion", ""):
                result.reasons.append(f"{obj['kind']} {obj['metadata']['name']}: {why}")
            continue
        namespace = obj["metadata"].get("namespace")
        result.kn.append([*argv, "-n", namespace] if namespace else argv)
        result.kn.extend(_label_commands(obj))
    return result


def _label_commands(obj: Obj) -> list[list[str]]:
    labels = obj["metadata"].get("labels") or {}
    if not labels:
        return []
    argv = ["kubectl", "label", RESOURCE_OF[obj["kind"]], obj["metadata"]["name"]]
    namespace = obj["metadata"].get("namespace")
    return [
        [*argv, *(f"{k}={v}" for k, v in labels.items()), *(["-n", namespace] * bool(namespace))]
    ]


def script(result: Plan) -> str:
    """The shell script: kubectl first (RBAC, Services, ...), then the kn commands."""
    lines = ["# Generated by `dhcpless kn-commands` from the rendered manifests.", "#"]
    lines += ["# kubectl applies what kn does not create (RBAC, CRDs) and, with the reason:"]
    lines += [f"#   {reason}" for reason in result.reasons]
    if result.kubectl:
        body = yaml.safe_dump_all(result.kubectl, sort_keys=True)
        lines += ["kubectl apply -f - <<'EOF'", body.rstrip("\n"), "EOF"]
    lines += [shlex.join(argv) for argv in result.kn]
    return "\n".join(lines) + "\n"


def run_kn_commands(path: str) -> int:
    """Read the rendered manifests (`-`: stdin) and print the script."""
    text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    objects = [doc for doc in yaml.safe_load_all(text) if doc]
    if not objects:
        print("dhcpless kn-commands: no objects in the input", file=sys.stderr)
        return 2
    sys.stdout.write(script(plan(objects)))
    return 0
