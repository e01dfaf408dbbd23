"""The namespaces a label selector selects: resync's share of the cluster-wide option.

An ApiServerSource with a `namespaceSelector` watches the namespaces whose labels match it
(knative/eventing `pkg/reconciler/apiserversource/`: the controller resolves the selector to
the sorted `status.namespaces`, one watch per resource and namespace; knative.md §a).
resync applies the same selector, so it re-drives exactly the hosts whose events the sources
would have sent. Kept beside `Kube` (one LIST of Namespaces per ping) rather than in it: only
resync under the cluster-wide option calls it.
"""

from __future__ import annotations

from dhcpless.kube.api.client import Kube
from dhcpless.kube.api.resources import NAMESPACES


def selected(kube: Kube, selector: str) -> list[str]:
    """Names of the Namespaces matching `selector`, sorted (errors as in
    `kube.transport.errors`)."""
    return sorted(namespace.metadata.name for namespace in kube.list(NAMESPACES, None, selector))
