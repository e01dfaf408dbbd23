"""Cluster API reads beside the main adapter (`kube.client`, at its size limit): does a Cluster
exist (`chain.stalls`, a pool's `spec.clusterName`), and one IPAddressClaim (`chain.identity`).

CAPI serves `cluster.x-k8s.io` and `ipam.cluster.x-k8s.io` at v1beta2 now (v1beta1 is
deprecated, and the only version of older installations): v1beta2 is read first, v1beta1 when
v1beta2 is not served. No Cluster kind at all reads as "no Cluster".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dhcpless import keys
from dhcpless.errors import Gone, Transient
from dhcpless.kube.api import versions as capi_version
from dhcpless.kube.api.client import Kube
from dhcpless.kube.transport.errors import Verb, translated
from dhcpless.models import IPAddressClaim

if TYPE_CHECKING:
    from kubernetes.client import CustomObjectsApi

CAPI_GROUP = "cluster.x-k8s.io"
VERSIONS = ("v1beta2", "v1beta1")
IPAM_VERSIONS = capi_version.VERSIONS


def _custom(kube: Kube) -> CustomObjectsApi:
    """The generated API, imported on first use (cold start: its module is about as costly as
    the rest of the client, and only these rare CAPI reads need it)."""
    from kubernetes.client import CustomObjectsApi

    return CustomObjectsApi(kube.api_client)


def cluster_exists(kube: Kube, namespace: str, name: str) -> bool:
    api = _custom(kube)
    for version in VERSIONS:
        try:
            with translated(Verb.GET, f"Cluster {namespace}/{name}"):
                api.get_namespaced_custom_object(CAPI_GROUP, version, namespace, "clusters", name)
            return True
        except Gone:
            continue
    return False


def get_capi_claim(kube: Kube, namespace: str, name: str) -> IPAddressClaim:
    """One CAPI IPAddressClaim (whose is the claim under our name?); Gone when absent.

    Read at v1beta2; only when that GET finds nothing and v1beta2 is not served, at v1beta1."""
    try:
        return _get_claim(kube, IPAM_VERSIONS[0], namespace, name)
    except Gone:
        if _served(kube, IPAM_VERSIONS[0]):
            raise
    return _get_claim(kube, IPAM_VERSIONS[1], namespace, name)


def _get_claim(kube: Kube, version: str, namespace: str, name: str) -> IPAddressClaim:
    with translated(Verb.GET, f"IPAddressClaim {namespace}/{name}"):
        raw = _custom(kube).get_namespaced_custom_object(
            keys.CAPI_IPAM_GROUP, version, namespace, "ipaddressclaims", name
        )
        if not isinstance(raw, dict):
            raise Transient(f"unexpected API response of type {type(raw).__name__}")
        return IPAddressClaim.from_k8s(raw)


def _served(kube: Kube, version: str) -> bool:
    """Does the API serve IPAddressClaims at `ipam.cluster.x-k8s.io/<version>` (discovery)?"""
    return capi_version.served(kube.api_client, version)
