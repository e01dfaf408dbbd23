"""func.yaml versus the Knative Service kustomize deploys: the two must describe one thing.

`func deploy` writes a Service from func.yaml; `kubectl apply -k` writes it from deploy/.
Whichever a user runs, the function must get the same name, identity, scale, capacity,
resources, probes and visibility, so every field func.yaml can express is compared here.
"""

from __future__ import annotations

from .checks import AUTOSCALING, VISIBILITY
from .support import Obj


def func_yaml_mismatches(func: Obj, service: Obj) -> list[str]:
    """One line per field where func.yaml and the Service disagree."""
    template = service["spec"]["template"]
    pod = template["spec"]
    container = pod["containers"][0]
    deploy = func.get("deploy", {})
    options = deploy.get("options", {})
    scale = options.get("scale", {})
    resources = options.get("resources", {})
    annotations = template.get("metadata", {}).get("annotations", {})
    labels = {label["key"]: label.get("value", "") for label in deploy.get("labels", [])}
    pairs = {
        "name": (func.get("name"), service["metadata"]["name"]),
        "serviceAccountName": (deploy.get("serviceAccountName"), pod.get("serviceAccountName")),
        "scale.min": (_str(scale.get("min")), annotations.get(AUTOSCALING + "min-scale")),
        "scale.max": (_str(scale.get("max")), annotations.get(AUTOSCALING + "max-scale")),
        "limits.concurrency": (
            resources.get("limits", {}).get("concurrency"),
            pod.get("containerConcurrency"),
        ),
        "requests": (resources.get("requests"), container["resources"].get("requests")),
        "limits": (
            _without_concurrency(resources.get("limits", {})),
            container["resources"].get("limits"),
        ),
        "healthEndpoints": (
            deploy.get("healthEndpoints"),
            {
                "liveness": container["livenessProbe"]["httpGet"]["path"],
                "readiness": container["readinessProbe"]["httpGet"]["path"],
            },
        ),
        "visibility": (labels.get(VISIBILITY), service["metadata"]["labels"].get(VISIBILITY)),
        "envs": (_env(func.get("run", {}).get("envs", [])), _env(container.get("env", []))),
    }
    return [f"{key}: func.yaml {a!r} != Service {b!r}" for key, (a, b) in pairs.items() if a != b]


def _str(value: object) -> str | None:
    return None if value is None else str(value)


def _without_concurrency(limits: Obj) -> Obj:
    return {k: v for k, v in limits.items() if k != "concurrency"}


def _env(envs: list[Obj]) -> dict[str, str]:
    return {e["name"]: e.get("value", "") for e in envs}
