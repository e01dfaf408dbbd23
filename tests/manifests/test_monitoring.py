"""deploy/monitoring/: the alerts and the dashboard are well formed and name only what we export.

No Prometheus Operator or Grafana here, so each is checked against a schema of its own shape,
written from its owner's types: the PrometheusRule from prometheus-operator
`pkg/apis/monitoring/v1/prometheusrule_types.go` (`RuleGroup`, `Rule`: `expr` required, `for`
a duration, exactly one of `alert` and `record`), the dashboard from Grafana's dashboard JSON
model (`uid`, `title`, `schemaVersion`, panels on a 24-column grid with their queries). Every
metric a query names must be one resync exports (`functions.resync.fleet.METRICS`), and the
component renders onto the example overlay with real kustomize: the rule, the dashboard's
ConfigMap for Grafana's sidecar, resync's push URL.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from functions.resync import fleet
from tests.support.kubectl import KUBECTL
from tests.support.waits import seconds

from .support import ROOT

MONITORING = ROOT / "deploy" / "monitoring"
DURATION = r"^(0|([0-9]+(ms|s|m|h|d|w|y))+)$"
"""prometheus-operator's `Duration` pattern (`monitoringv1.Duration`)."""
STRINGS = {"type": "object", "additionalProperties": {"type": "string"}}
RULE_SCHEMA = {
    "type": "object",
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "properties": {
        "apiVersion": {"const": "monitoring.coreos.com/v1"},
        "kind": {"const": "PrometheusRule"},
        "spec": {
            "type": "object",
            "required": ["groups"],
            "properties": {
                "groups": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "type": "object",
                        "required": ["name", "rules"],
                        "properties": {
                            "name": {"type": "string", "minLength": 1},
                            "rules": {
                                "type": "array", "minItems": 1, "items": {"$ref": "#/$defs/rule"}
                            },
                        },
                    },
                }
            },
        },
    },
    "$defs": {
        "rule": {
            "type": "object",
            "required": ["expr"],
            "additionalProperties": False,
            "oneOf": [{"required": ["alert"]}, {"required": ["record"]}],
            "properties": {
                "alert": {"type": "string", "pattern": "^[A-Z][A-Za-z0-9]+$"},
                "record": {"type": "string"},
                "expr": {"type": "string", "minLength": 1},
                "for": {"type": "string", "pattern": DURATION},
                "keep_firing_for": {"type": "string", "pattern": DURATION},
                "labels": STRINGS,
                "annotations": STRINGS,
            },
        }
    },
}  # fmt: skip
PANEL_TYPES = ("stat", "timeseries", "bargauge", "table", "gauge")
DASHBOARD_SCHEMA = {
    "type": "object",
    "required": ["uid", "title", "schemaVersion", "panels", "templating"],
    "properties": {
        "uid": {"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,40}$"},
        "title": {"type": "string", "minLength": 1},
        "schemaVersion": {"type": "integer", "minimum": 30},
        "panels": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["id", "type", "title", "gridPos", "targets", "datasource"],
                "properties": {
                    "id": {"type": "integer"},
                    "type": {"enum": list(PANEL_TYPES)},
                    "gridPos": {
                        "type": "object",
                        "required": ["x", "y", "w", "h"],
                        "properties": {
                            "x": {"type": "integer", "minimum": 0, "maximum": 23},
                            "w": {"type": "integer", "minimum": 1, "maximum": 24},
                        },
                    },
                    "targets": {
                        "type": "array",
                        "minItems": 1,
                        "items": {"type": "object", "required": ["refId", "expr"]},
                    },
                },
            },
        },
        "templating": {"type": "object", "required": ["list"]},
    },
}  # fmt: skip
PROMQL_WORDS = frozenset(
    {"sum", "max", "min", "avg", "count", "by", "without", "time", "on", "ignoring", "and", "or",
     "unless", "bool", "rate", "increase", "label_values", "offset"}
)  # fmt: skip


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression reads: its identifiers outside label matchers,
    strings and `by (...)` lists, less the language's own words."""
    text = re.sub(r'"[^"]*"', "", expr)
    text = re.sub(r"label_values\(\s*([^,)]+),[^)]*\)", r"\1", text)  # Grafana's variable query
    text = re.sub(r"\{[^}]*\}|\[[^\]]*\]", "", text)
    text = re.sub(r"\b(by|without|on|ignoring)\s*\([^)]*\)", "", text)
    names = set(re.findall(r"[a-zA-Z_:][a-zA-Z0-9_:]*", text))
    return names - PROMQL_WORDS


def _rule() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((MONITORING / "prometheusrule.yaml").read_text())
    return loaded


def _dashboard() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((MONITORING / "dashboard.json").read_text())
    return loaded


def _exprs() -> list[pytest.ParameterSet]:
    rules = [r for g in _rule()["spec"]["groups"] for r in g["rules"]]
    found = [pytest.param(r["expr"], id=f"alert-{r['alert']}") for r in rules]
    for panel in _dashboard()["panels"]:
        found += [pytest.param(t["expr"], id=f"panel-{panel['id']}") for t in panel["targets"]]
    found += [
        pytest.param(v["query"]["query"], id=f"variable-{v['name']}")
        for v in _dashboard()["templating"]["list"]
        if v["type"] == "query"
    ]
    return found


def test_the_rule_has_the_operators_shape() -> None:
    jsonschema.validate(_rule(), RULE_SCHEMA)
    alerts = {r["alert"] for g in _rule()["spec"]["groups"] for r in g["rules"]}
    assert {"DhcplessHostWaitingTooLong", "DhcplessHostsHang", "DhcplessResyncSilent"} <= alerts
    for group in _rule()["spec"]["groups"]:
        for rule in group["rules"]:
            assert rule["labels"]["severity"] in ("warning", "critical"), rule["alert"]
            assert rule["annotations"]["summary"], rule["alert"]


def test_the_dashboard_has_grafanas_shape() -> None:
    dashboard = _dashboard()
    jsonschema.validate(dashboard, DASHBOARD_SCHEMA)
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    assert all(p["gridPos"]["x"] + p["gridPos"]["w"] <= 24 for p in dashboard["panels"])
    names = {v["name"] for v in dashboard["templating"]["list"]}
    used = {m for p in dashboard["panels"] for m in re.findall(r"\$(\w+)", json.dumps(p))}
    assert used <= names, used - names


@pytest.mark.parametrize("expr", _exprs())
def test_every_query_names_only_metrics_resync_exports(expr: str) -> None:
    names = metric_names(expr)
    assert names, expr
    assert names <= set(fleet.METRICS), names - set(fleet.METRICS)
    assert expr.count("(") == expr.count(")") and expr.count("{") == expr.count("}")


@pytest.mark.parametrize(
    ("expr", "names"),
    [
        pytest.param('sum by (state) (dhcpless_hosts{namespace=~"$x"})', {"dhcpless_hosts"},
                     id="by"),
        pytest.param("time() - max(dhcpless_resync_tick_timestamp_seconds) > 900",
                     {"dhcpless_resync_tick_timestamp_seconds"}, id="time"),
        pytest.param("rate(up[5m])", {"up"}, id="range"),
        pytest.param("label_values(dhcpless_hosts, namespace)", {"dhcpless_hosts"}, id="variable"),
    ],
)  # fmt: skip
def test_metric_names_reads_what_a_query_names(expr: str, names: set[str]) -> None:
    assert metric_names(expr) == names


def test_the_component_renders_onto_an_overlay(tmp_path: Path) -> None:
    overlay = tmp_path / "kustomization.yaml"
    overlay.write_text(
        yaml.safe_dump(
            {
                "apiVersion": "kustomize.config.k8s.io/v1beta1",
                "kind": "Kustomization",
                "namespace": "metal3",  # as the overlay the guide has one copy and edit
                "resources": [os.path.relpath(ROOT / "deploy" / "overlays" / "example", tmp_path)],
                "components": [os.path.relpath(MONITORING, tmp_path)],
            }
        )
    )
    done = subprocess.run(
        [str(KUBECTL), "kustomize", "--load-restrictor=LoadRestrictionsNone", str(tmp_path)],
        capture_output=True, text=True, timeout=seconds(60), check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    objs = [d for d in yaml.safe_load_all(done.stdout) if d]
    (rule,) = [o for o in objs if o["kind"] == "PrometheusRule"]
    assert rule["metadata"]["namespace"] == "metal3"
    (board,) = [
        o for o in objs if o["kind"] == "ConfigMap" and "dhcpless-fleet.json" in o.get("data", {})
    ]
    assert board["metadata"]["labels"]["grafana_dashboard"] == "1"
    assert json.loads(board["data"]["dhcpless-fleet.json"]) == _dashboard()
    (resync,) = [o for o in objs if o["kind"] == "Service" and o["metadata"]["name"] == "resync"]
    env = {
        e["name"]: e.get("value")
        for e in resync["spec"]["template"]["spec"]["containers"][0]["env"]
    }
    assert env["DHCPLESS_METRICS_PUSH_URL"].endswith("/metrics/job/metal3-dhcpless")
