"""What a `dhcpless kn-commands` script creates, modelled on kn's and kubectl's own code.

No cluster and no kn binary here, so the commands are parsed into the objects they would create,
written independently of the generator from knative/client: `kn broker create`
(`pkg/commands/broker/create.go`: `--class` is the broker.class annotation;
`delivery_option_flags.go`: `--retry`, `--backoff-policy`, `--backoff-delay`, `--timeout`),
`kn source apiserver create` (`pkg/commands/source/apiserver/flags.go`,
`getValidAPIVersionKindSelector`: `Kind:APIVersion[:k=v,...]`, the labels as `matchLabels`),
and `--sink`/`--dl-sink` (`pkg/flags/sink/sink.go`, `Reference.Resolve`: a ref with the
object's kind, apiVersion, name and the command's namespace). An unknown flag fails the parse,
as kn would refuse it.
"""

from __future__ import annotations

import shlex
from typing import Any

import yaml

Obj = dict[str, Any]

SINKS = {"broker": ("eventing.knative.dev/v1", "Broker")}
SINKS["ksvc"] = ("serving.knative.dev/v1", "Service")


def _options(argv: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """Positional arguments and `--flag value` options (repeatable), as cobra parses them."""
    positional: list[str] = []
    options: dict[str, list[str]] = {}
    items = iter(argv)
    for item in items:
        if item.startswith("-"):
            options.setdefault(item, []).append(next(items))
        else:
            positional.append(item)
    return positional, options


def _sink(text: str, namespace: str) -> Obj:
    prefix, name = text.split(":", 1)
    api_version, kind = SINKS[prefix]
    return {"ref": {"apiVersion": api_version, "kind": kind, "name": name, "namespace": namespace}}


def _take(options: dict[str, list[str]], flag: str) -> str | None:
    values = options.pop(flag, None)
    return None if values is None else values[-1]


def broker(name: str, options: dict[str, list[str]], namespace: str) -> Obj:
    meta: Obj = {"name": name, "namespace": namespace}
    if (cls := _take(options, "--class")) is not None:
        meta["annotations"] = {"eventing.knative.dev/broker.class": cls}
    delivery: Obj = {}
    if (retry := _take(options, "--retry")) is not None:
        delivery["retry"] = int(retry)
    for flag, key in (("--backoff-policy", "backoffPolicy"), ("--backoff-delay", "backoffDelay")):
        if (value := _take(options, flag)) is not None:
            delivery[key] = value
    if (timeout := _take(options, "--timeout")) is not None:
        delivery["timeout"] = timeout
    if (sink := _take(options, "--dl-sink")) is not None:
        delivery["deadLetterSink"] = _sink(sink, namespace)
    spec = {"delivery": delivery} if delivery else {}
    return {
        "apiVersion": "eventing.knative.dev/v1",
        "kind": "Broker",
        "metadata": meta,
        "spec": spec,
    }


def _resource(text: str) -> Obj:
    parts = text.split(":", 2)
    entry: Obj = {"apiVersion": parts[1], "kind": parts[0]}
    if len(parts) == 3 and parts[2]:
        pairs = (pair.split("=", 1) for pair in parts[2].split(","))
        entry["selector"] = {"matchLabels": dict(pairs)}
    return entry


def apiserversource(name: str, options: dict[str, list[str]], namespace: str) -> Obj:
    spec: Obj = {"resources": [_resource(r) for r in options.pop("--resource", [])]}
    if (mode := _take(options, "--mode")) is not None:
        spec["mode"] = mode
    if (account := _take(options, "--service-account")) is not None:
        spec["serviceAccountName"] = account
    spec["sink"] = _sink(str(_take(options, "--sink")), namespace)
    meta = {"name": name, "namespace": namespace}
    return {"apiVersion": "sources.knative.dev/v1", "kind": "ApiServerSource", "metadata": meta,
            "spec": spec}  # fmt: skip


KN = {("broker", "create"): broker, ("source", "apiserver", "create"): apiserversource}
KUBECTL_KINDS = {"broker": "Broker", "apiserversource": "ApiServerSource"}


def _kn(argv: list[str], created: dict[tuple[str, str], Obj]) -> None:
    for verb, build in KN.items():
        if tuple(argv[1 : 1 + len(verb)]) == verb:
            positional, options = _options(argv[1 + len(verb) :])
            namespace = _take(options, "-n") or "default"
            obj = build(positional[0], options, namespace)
            assert not options, f"kn would refuse the flags {sorted(options)}"
            created[(obj["kind"], obj["metadata"]["name"])] = obj
            return
    raise AssertionError(f"not a kn command the model knows: {shlex.join(argv)}")


def _label(argv: list[str], created: dict[tuple[str, str], Obj]) -> None:
    positional, options = _options(argv[2:])
    kind, name, *pairs = positional
    obj = created[(KUBECTL_KINDS[kind], name)]
    assert obj["metadata"]["namespace"] == _take(options, "-n")
    obj["metadata"].setdefault("labels", {}).update(dict(p.split("=", 1) for p in pairs))


def run(script: str) -> dict[tuple[str, str], Obj]:
    """Every object the script creates, by (kind, name)."""
    created: dict[tuple[str, str], Obj] = {}
    lines = iter(script.splitlines())
    for line in lines:
        if not line or line.startswith("#"):
            continue
        if line == "kubectl apply -f - <<'EOF'":
            body = "\n".join(iter(lambda: next(lines), "EOF"))
            for obj in yaml.safe_load_all(body):
                created[(obj["kind"], obj["metadata"]["name"])] = obj
        elif line.startswith("kn "):
            _kn(shlex.split(line), created)
        elif line.startswith("kubectl label "):
            _label(shlex.split(line), created)
        else:
            raise AssertionError(f"unexpected line: {line}")
    return created
