"""Ironic's side of BMO's registration: would the node update with our network data be refused?

What the real pair does (read upstream):
* baremetal-operator decodes the Secret's `networkData` as YAML into a map and sets it as the
  Ironic node's `network_data` when no PreprovisioningImage builder is enabled
  (metal3-io/baremetal-operator `pkg/provisioner/ironic/register.go`, `Register`); a decode
  failure is returned as `transientError` (`pkg/provisioner/ironic/result.go`).
* Ironic validates every update of `network_data` against its JSON schema and answers 400 on
  failure (openstack/ironic `ironic/api/controllers/v1/node.py` `validate_network_data`).
* BMO's `tryUpdateNode` (`pkg/provisioner/ironic/ironic.go`) turns any failure but a 409 into
  a transient error; the controller's `actionRegistering`
  (`internal/controller/metal3.io/baremetalhost_controller.go`) returns it as `actionError`,
  which writes no status and requeues: the host stays `registering` with no error shown.

The check itself is injectable (`NetworkDataCheck`): the sandbox package cannot read Ironic's
schema file at run time, so the demo uses the project's own rules (`project_rules`), and tests
pass a check running jsonschema over the real schema. A check returns reasons that name fields
and rules, never values: the data is Secret content.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import yaml

NetworkDataCheck = Callable[[Mapping[str, Any]], Sequence[str]]
"""Reasons Ironic refuses a `network_data` document; empty when it accepts it."""


def project_rules(document: Mapping[str, Any]) -> tuple[str, ...]:
    """The project's own rules for what Ironic's schema refuses (`render.validate_ironic`)."""
    from dhcpless.render.validate_ironic import ironic_problems  # only when a host registers

    return tuple(problem.message for problem in ironic_problems(document))


def refusal(secret: Mapping[str, Any] | None, check: NetworkDataCheck) -> str | None:
    """Why registering with `secret` fails (BMO's decode, then Ironic's schema), or None.

    BMO reads key `networkData`, else `value` (`internal/controller/metal3.io/
    host_config_data.go` `getSecretDataWithFinalizer`). No Secret or no data: nothing is
    sent to Ironic, so nothing is refused."""
    data = (secret or {}).get("data") or {}
    raw = data["networkData"] if "networkData" in data else data.get("value")
    if not raw:
        return None
    try:
        document = yaml.safe_load(base64.b64decode(raw))
    except (binascii.Error, ValueError, yaml.YAMLError):
        return "invalid preprovisioningNetworkData: not YAML"
    if not isinstance(document, Mapping):
        return "invalid preprovisioningNetworkData: not a mapping"
    reasons = check(document)
    if not reasons:
        return None
    return "Invalid network_data: " + "; ".join(reasons)
