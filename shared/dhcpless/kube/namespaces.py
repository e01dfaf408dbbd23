"""The namespaces a label selector selects: resync's share of the cluster-wide option.

An ApiServerSource with a `namespaceSelector` watches the namespaces whose labels match it
(knative/eventing `pkg/reconciler/apiserversource/`: the controller resolves the selector to
the sorted `status.namespaces`, one watch per resource and namespace; knative.md §a).
resync applies the same selector, so it re-drives exactly the hosts whose events the sources
would have sent. Kept beside `Kube` (one LIST of Namespaces per ping) rather than in it: only
resync under the cluster-wide option calls it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dhcpless.errors import Transient
from dhcpless.kube import core
from dhcpless.kube.client import Kube
from dhcpless.kube.errors import Verb, translated


def selected(kube: Kube, selector: str) -> list[str]:
    """Names of the Namespaces matching `selector`, sorted (errors as in `kube.errors`)."""
    with translated(Verb.LIST, f"Namespaces matching {selector!r}"):
        raw = core.request(
            kube.api_client, "GET", core.NAMESPACES, {}, None, {"labelSelector": selector}
        )
        return sorted(_name(item) for item in _items(raw))


def _items(raw: object) -> list[Mapping[str, Any]]:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("items") or [], list):
        raise Transient("unexpected answer to a LIST of Namespaces")
    return [item for item in raw.get("items") or [] if isinstance(item, Mapping)]


def _name(item: Mapping[str, Any]) -> str:
    metadata = item.get("metadata")
    return str(metadata.get("name", "")) if isinstance(metadata, Mapping) else ""
