"""What an admission policy costs the sandbox API server per create, as ratios.

Not a timed test: creates the same BareMetalHosts through the in-process API (no HTTP, so the
admission chain is what differs) with no policy (the baseline, measured in the same run), with
deploy/admission's policy bound but the namespace out of scope (matching only), and in scope
(match conditions and the mutation evaluated by CEL); rounds alternate and the median is kept,
so a loaded machine skews all three alike. Prints the ratios and asserts only sanity: in scope
every host was paused on create, out of scope none was.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from dhcpless import keys
from dhcpless_sandbox.apiserver.admission import WriteOptions
from dhcpless_sandbox.apiserver.server import SandboxServer

pytestmark = pytest.mark.bench

HOSTS, ROUNDS = 300, 5
POLICY = Path(__file__).resolve().parents[1] / "deploy" / "admission" / "mutating-policy.yaml"
PLURALS = {
    "MutatingAdmissionPolicy": "mutatingadmissionpolicies",
    "MutatingAdmissionPolicyBinding": "mutatingadmissionpolicybindings",
}
CASES = {"no policy": (False, False), "out of scope": (True, False), "in scope": (True, True)}


def _server(policy: bool, in_scope: bool) -> SandboxServer:
    server = SandboxServer()
    server.load_builtin_crds()
    api, options = server.api, WriteOptions()
    labels = {keys.PREPROVISIONING_SCOPE_LABEL: keys.SCOPE_ENABLED} if in_scope else {}
    namespaces = api.registry.lookup("", "v1", "namespaces")
    assert namespaces is not None
    api.create(namespaces, "", {"metadata": {"name": "b", "labels": labels}}, options)
    for obj in yaml.safe_load_all(POLICY.read_text()) if policy else ():
        rt = api.registry.lookup("admissionregistration.k8s.io", "v1", PLURALS[obj["kind"]])
        assert rt is not None
        api.create(rt, "", obj, options)
    return server


def _round(policy: bool, in_scope: bool) -> tuple[float, int]:
    """Seconds for HOSTS creates, and how many came back paused."""
    api = _server(policy, in_scope).api
    rt = api.registry.lookup(keys.BMO_GROUP, keys.BMO_VERSION, "baremetalhosts")
    assert rt is not None
    paused, started = 0, time.perf_counter()
    for i in range(HOSTS):
        body: dict[str, Any] = {"metadata": {"name": f"h{i}"}, "spec": {"online": True}}
        made = api.create(rt, "b", body, WriteOptions()).object
        paused += keys.PAUSED_ANNOTATION in (made["metadata"].get("annotations") or {})
    return time.perf_counter() - started, paused


def test_policy_cost_per_create_as_ratios() -> None:
    seconds: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(ROUNDS):
        for name, (policy, in_scope) in CASES.items():
            took, paused = _round(policy, in_scope)
            assert paused == (HOSTS if in_scope else 0)
            seconds[name].append(took)
    base = statistics.median(seconds["no policy"])
    print(f"\nadmission policy cost, {HOSTS} creates x {ROUNDS} rounds (median)")
    for name, runs in seconds.items():
        median = statistics.median(runs)
        print(f"  {name:13} {1000 * median / HOSTS:7.3f} ms/create  x{median / base:.2f}")
