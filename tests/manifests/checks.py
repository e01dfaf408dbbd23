"""Deployment rules a schema cannot express, as pure functions: objects in, problems out.

Each check names the rule it enforces (reference: ../shared/reference/knative.md §c, §d) and
returns one line per violation, so a test can show that a mutated manifest is caught.
"""

from __future__ import annotations

import re

from dhcpless.keys import MANAGED_BY_LABEL, MANAGED_BY_VALUE

from .support import Obj

KSVC = ("serving.knative.dev/v1", "Service")
AUTOSCALING = "autoscaling.knative.dev/"
VISIBILITY = "networking.knative.dev/visibility"
_WINDOW = re.compile(r"^(\d+)(s|m|h)$")
_ISO_DURATION = re.compile(r"^PT(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?$")
_DIALECTS = {"exact", "prefix", "suffix", "all", "any", "not", "cesql"}


def _kind(objs: list[Obj], api_version: str, kind: str) -> list[Obj]:
    return [o for o in objs if (o["apiVersion"], o["kind"]) == (api_version, kind)]


def _name(obj: Obj) -> str:
    return f"{obj['kind']}/{obj['metadata']['name']}"


def autoscaling_placement(objs: list[Obj]) -> list[str]:
    """Autoscaling keys only on the revision template: Serving rejects them on the Service."""
    problems = []
    for svc in _kind(objs, *KSVC):
        on_service = svc["metadata"].get("annotations", {})
        problems += [
            f"{_name(svc)}: {k} on Service metadata"
            for k in on_service
            if k.startswith(AUTOSCALING)
        ]
        template = svc["spec"]["template"].get("metadata", {}).get("annotations", {})
        if template.get(AUTOSCALING + "min-scale") != "0":
            problems.append(f'{_name(svc)}: revision min-scale is not "0"')
        if not template.get(AUTOSCALING + "max-scale", "").isdigit():
            problems.append(f"{_name(svc)}: revision max-scale missing")
        if not 6 <= _seconds(template.get(AUTOSCALING + "window", "")) <= 3600:
            problems.append(f"{_name(svc)}: window missing or outside 6s-1h")
    return problems


def _seconds(window: str) -> int:
    match = _WINDOW.match(window)
    if not match:
        return -1
    return int(match[1]) * {"s": 1, "m": 60, "h": 3600}[match[2]]


def cluster_local(objs: list[Obj]) -> list[str]:
    """Broker-triggered Services get no external route."""
    return [
        f"{_name(svc)}: not cluster-local"
        for svc in _kind(objs, *KSVC)
        if svc["metadata"].get("labels", {}).get(VISIBILITY) != "cluster-local"
    ]


def serving_runtime(objs: list[Obj], capacity: int) -> list[str]:
    """containerConcurrency = gunicorn capacity; probes fast; timeout and resources set."""
    problems = []
    for svc in _kind(objs, *KSVC):
        spec = svc["spec"]["template"]["spec"]
        if spec.get("containerConcurrency") != capacity and _is_ours(spec):
            problems.append(f"{_name(svc)}: containerConcurrency is not {capacity}")
        if not 0 < spec.get("timeoutSeconds", 0) <= 600:
            problems.append(f"{_name(svc)}: timeoutSeconds missing or above 600")
        for container in spec["containers"]:
            problems += _container_problems(_name(svc), container, _is_ours(spec))
    return problems


def _is_ours(spec: Obj) -> bool:
    return any(e.get("name") == "FUNCTION" for c in spec["containers"] for e in c.get("env", []))


def _container_problems(name: str, container: Obj, ours: bool) -> list[str]:
    problems = []
    resources = container.get("resources", {})
    if not (resources.get("requests") and resources.get("limits")):
        problems.append(f"{name}: resources requests/limits missing")
    for probe in ("readinessProbe", "livenessProbe"):
        if ours and "httpGet" not in container.get(probe, {}):
            problems.append(f"{name}: {probe} is not httpGet")
    slow = {"periodSeconds", "initialDelaySeconds"} & set(container.get("readinessProbe", {}))
    problems += [f"{name}: readinessProbe sets {key}" for key in sorted(slow)]
    return problems


def trigger_delivery(objs: list[Obj]) -> list[str]:
    """A Trigger's delivery replaces the Broker's: each needs retry, backoff and a DLS."""
    problems = []
    for trigger in _kind(objs, "eventing.knative.dev/v1", "Trigger"):
        problems += [f"{_name(trigger)}: {p}" for p in delivery_problems(trigger["spec"])]
        for entry in trigger["spec"].get("filters", []):
            if len(set(entry) & _DIALECTS) != 1 or set(entry) - _DIALECTS:
                problems.append(
                    f"{_name(trigger)}: filter entry {sorted(entry)} is not one dialect"
                )
    for broker in _kind(objs, "eventing.knative.dev/v1", "Broker"):
        problems += [f"{_name(broker)}: {p}" for p in delivery_problems(broker["spec"])]
    return problems


def delivery_problems(spec: Obj) -> list[str]:
    delivery = spec.get("delivery", {})
    problems = []
    if not isinstance(delivery.get("retry"), int) or delivery["retry"] < 1:
        problems.append("delivery.retry missing or below 1")
    if delivery.get("backoffPolicy") not in ("linear", "exponential"):
        problems.append("delivery.backoffPolicy missing")
    if not _ISO_DURATION.match(str(delivery.get("backoffDelay", ""))):
        problems.append("delivery.backoffDelay missing or not an ISO-8601 duration")
    if not delivery.get("deadLetterSink", {}).keys() & {"ref", "uri"}:
        problems.append("delivery.deadLetterSink missing")
    return problems


def api_server_sources(objs: list[Obj]) -> list[str]:
    """Secrets travel by reference only; claims and Secrets are watched only when ours."""
    problems = []
    for source in _kind(objs, "sources.knative.dev/v1", "ApiServerSource"):
        mode = source["spec"].get("mode")
        for resource in source["spec"]["resources"]:
            kind = resource["kind"]
            if kind == "Secret" and mode != "Reference":
                problems.append(f"{_name(source)}: Secrets watched in mode {mode}, not Reference")
            labels = resource.get("selector", {}).get("matchLabels", {})
            if kind in ("Secret", "IPClaim") and labels.get(MANAGED_BY_LABEL) != MANAGED_BY_VALUE:
                problems.append(f"{_name(source)}: {kind} watched without our managed-by selector")
        if mode not in ("Resource", "Reference"):
            problems.append(f"{_name(source)}: mode {mode!r}")
    return problems


def rbac_wildcards(objs: list[Obj]) -> list[str]:
    """Least privilege starts with naming things: no `*` in any rule field."""
    return [
        f"{_name(role)}: rule {index} has * in {field}"
        for role in objs
        if role["kind"] in ("Role", "ClusterRole")
        for index, rule in enumerate(role.get("rules", []))
        for field in ("apiGroups", "resources", "verbs", "resourceNames", "nonResourceURLs")
        if any("*" in value for value in rule.get(field, []))
    ]
