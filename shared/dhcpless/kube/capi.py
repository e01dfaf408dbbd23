"""Cluster API reads beside the main adapter (`kube.client`, at its size limit): does a Cluster
exist (`chain.stalls`, a pool's `spec.clusterName`), and one IPAddressClaim (`chain.identity`).

CAPI serves `cluster.x-k8s.io` v1beta2 now and v1beta1 on older installations: v1beta2 is
read first, v1beta1 when v1beta2 is not served. No Cluster kind at all reads as "no Cluster".
"""

from __future__ import annotations

from kubernetes.client import CustomObjectsApi

from dhcpless import keys
from dhcpless.errors import Gone, Transient
from dhcpless.kube.client import Kube
from dhcpless.kube.errors import Verb, translated
from dhcpless.models import IPAddressClaim

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


def get_capi_claim(kube: Kube, namespace: str, name: str) -> IPAddressClaim:
    """One CAPI IPAddressClaim (whose is the claim under our name?); Gone when absent."""
    with translated(Verb.GET, f"IPAddressClaim {namespace}/{name}"):
        raw = CustomObjectsApi(kube.api_client).get_namespaced_custom_object(
            keys.CAPI_IPAM_GROUP, keys.CAPI_IPAM_VERSION, namespace, "ipaddressclaims", name
        )
        if not isinstance(raw, dict):
            raise Transient(f"unexpected API response of type {type(raw).__name__}")
        return IPAddressClaim.from_k8s(raw)
