"""The rendered installation follows the Knative rules a schema cannot express.

Covers each rule in checks.py twice: the real manifests pass it, and a table of mutated
copies (one per way of breaking the rule) shows the check reports exactly that object.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from . import checks
from .support import Obj, named

Check = Callable[[list[Obj]], list[str]]
Mutation = Callable[[list[Obj]], None]


Locate = Callable[[list[Obj]], Obj]


def _at(kind: str, name: str, *path: str | int) -> Locate:
    """A locator: the node at `path` inside the object `kind/name`."""

    def locate(objs: list[Obj]) -> Obj:
        node: Any = named(objs, kind, name)
        for key in path:
            node = node[key]
        assert isinstance(node, dict)
        return node

    return locate


def _pop(locate: Locate, key: str) -> Mutation:
    return lambda objs: locate(objs).pop(key) and None


def _put(locate: Locate, **values: object) -> Mutation:
    return lambda objs: locate(objs).update(values)


def _move_min_scale_up(objs: list[Obj]) -> None:
    key = checks.AUTOSCALING + "min-scale"
    _SVC(objs)["metadata"]["annotations"] = {key: _ANNOTATIONS(objs)[key]}


def _add_wildcard_cluster_role(objs: list[Obj]) -> None:
    rule = {"verbs": ["get"], "nonResourceURLs": ["*"]}
    objs.append({"kind": "ClusterRole", "metadata": {"name": "x"}, "rules": [rule]})


_SVC = _at("Service", "host-registration")
_ANNOTATIONS = _at("Service", "host-registration", "spec", "template", "metadata", "annotations")
_POD = _at("Service", "host-registration", "spec", "template", "spec")
_CONTAINER = _at("Service", "host-registration", "spec", "template", "spec", "containers", 0)
_READINESS = _at(
    "Service", "host-registration", "spec", "template", "spec", "containers", 0, "readinessProbe"
)
_DELIVERY = _at("Trigger", "secret-readiness", "spec", "delivery")
_SECRETS = _at("ApiServerSource", "dhcpless-secrets", "spec")
_SECRETS_RESOURCE = _at("ApiServerSource", "dhcpless-secrets", "spec", "resources", 0)
_CLAIMS_RESOURCE = _at("ApiServerSource", "dhcpless-ipclaims", "spec", "resources", 0)
_RULE = _at("Role", "secret-readiness", "rules", 0)
MIN, MAX, WINDOW = (checks.AUTOSCALING + k for k in ("min-scale", "max-scale", "window"))

MUTATIONS = [
    pytest.param(_move_min_scale_up, "autoscaling", "on Service metadata", id="on-service"),
    pytest.param(_put(_ANNOTATIONS, **{MIN: "1"}), "autoscaling", "min-scale", id="min-scale-1"),
    pytest.param(_put(_ANNOTATIONS, **{WINDOW: "2s"}), "autoscaling", "window", id="window-2s"),
    pytest.param(_pop(_ANNOTATIONS, MAX), "autoscaling", "max-scale", id="no-max-scale"),
    pytest.param(
        _pop(_at("Service", "host-registration", "metadata", "labels"), checks.VISIBILITY),
        "cluster-local",
        "Service/host-registration",
        id="public-function",
    ),
    pytest.param(
        _pop(_at("Service", "dead-letter", "metadata", "labels"), checks.VISIBILITY),
        "cluster-local",
        "Service/dead-letter",
        id="public-dead-letter",
    ),
    pytest.param(_put(_POD, containerConcurrency=0), "runtime", "containerConc", id="unlimited"),
    pytest.param(_pop(_POD, "timeoutSeconds"), "runtime", "timeoutSeconds", id="no-timeout"),
    pytest.param(_put(_READINESS, periodSeconds=10), "runtime", "periodSeconds", id="slow-probe"),
    pytest.param(_put(_READINESS, initialDelaySeconds=5), "runtime", "initialDelay", id="delayed"),
    pytest.param(
        _put(_CONTAINER, livenessProbe={"tcpSocket": {}}), "runtime", "liveness", id="tcp"
    ),
    pytest.param(_pop(_CONTAINER, "resources"), "runtime", "resources", id="no-resources"),
    pytest.param(_pop(_DELIVERY, "retry"), "delivery", "retry", id="no-retry"),
    pytest.param(_pop(_DELIVERY, "backoffPolicy"), "delivery", "backoffPolicy", id="no-policy"),
    pytest.param(_pop(_DELIVERY, "backoffDelay"), "delivery", "backoffDelay", id="no-delay"),
    pytest.param(_put(_DELIVERY, backoffDelay="500ms"), "delivery", "ISO-8601", id="go-duration"),
    pytest.param(_pop(_DELIVERY, "deadLetterSink"), "delivery", "deadLetterSink", id="no-dls"),
    pytest.param(
        _pop(_at("Trigger", "resync", "spec"), "delivery"),
        "delivery",
        "Trigger/resync",
        id="no-delivery",
    ),
    pytest.param(
        _pop(_at("Broker", "dhcpless", "spec", "delivery"), "retry"),
        "delivery",
        "Broker/dhcpless",
        id="broker-no-retry",
    ),
    pytest.param(
        _put(_at("Trigger", "resync", "spec", "filters", 0), prefix={"type": "x"}),
        "delivery",
        "one dialect",
        id="two-dialects",
    ),
    pytest.param(_put(_SECRETS, mode="Resource"), "sources", "not Reference", id="secret-data"),
    pytest.param(_pop(_SECRETS, "mode"), "sources", "mode", id="secret-default-mode"),
    pytest.param(_pop(_SECRETS_RESOURCE, "selector"), "sources", "managed-by", id="all-secrets"),
    pytest.param(_pop(_CLAIMS_RESOURCE, "selector"), "sources", "IPClaim", id="all-claims"),
    pytest.param(_put(_RULE, verbs=["*"]), "rbac", "verbs", id="wildcard-verb"),
    pytest.param(_put(_RULE, resources=["*"]), "rbac", "resources", id="wildcard-resource"),
    pytest.param(_put(_RULE, apiGroups=["*"]), "rbac", "apiGroups", id="wildcard-group"),
    pytest.param(_add_wildcard_cluster_role, "rbac", "ClusterRole/x", id="wildcard-url"),
]


def _checks(capacity: int) -> dict[str, Check]:
    return {
        "autoscaling": checks.autoscaling_placement,
        "cluster-local": checks.cluster_local,
        "runtime": lambda objs: checks.serving_runtime(objs, capacity),
        "delivery": checks.trigger_delivery,
        "sources": checks.api_server_sources,
        "rbac": checks.rbac_wildcards,
    }


@pytest.mark.kubectl
@pytest.mark.parametrize(
    "check", ["autoscaling", "cluster-local", "runtime", "delivery", "sources", "rbac"]
)
def test_installation_passes(installed: list[Obj], gunicorn_capacity: int, check: str) -> None:
    assert _checks(gunicorn_capacity)[check](installed) == []


@pytest.mark.kubectl
@pytest.mark.parametrize(("mutate", "check", "fragment"), MUTATIONS)
def test_check_reports_mutated_copy(
    installed: list[Obj], gunicorn_capacity: int, mutate: Mutation, check: str, fragment: str
) -> None:
    objs = copy.deepcopy(installed)
    mutate(objs)
    problems = _checks(gunicorn_capacity)[check](objs)
    assert problems, "the mutation went unnoticed"
    assert all(fragment in problem for problem in problems), problems
