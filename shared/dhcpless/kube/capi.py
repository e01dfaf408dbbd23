"""Cluster API reads: does a Cluster exist? (`chain.stalls`, a pool's `spec.clusterName`).

CAPI serves `cluster.x-k8s.io` v1beta2 now and v1beta1 on older installations: v1beta2 is
read first, v1beta1 when v1beta2 is not served. No Cluster kind at all reads as "no Cluster".
"""

from __future__ import annotations

from kubernetes.client import CustomObjectsApi

from dhcpless.errors import Gone
from dhcpless.kube.client import Kube
from dhcpless.kube.errors import Verb, translated

CAPI_GROUP = "cluster.x-k8s.io"
VERSIONS = ("v1beta2", "v1beta1")


def cluster_exists(kube: Kube, namespace: str, name: str) -> bool:
    api = CustomObjectsApi(kube.api_client)
    for version in VERSIONS:
        try:
            with translated(Verb.GET, f"Cluster {namespace}/{name}"):
                api.get_namespaced_custom_object(CAPI_GROUP, version, namespace, "clusters", name)
            return True
        except Gone:
            continue
    return False
