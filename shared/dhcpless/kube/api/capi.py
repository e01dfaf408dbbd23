"""Cluster API reads beside the main adapter (`kube.api.client`): does a Cluster exist
(`chain.stalls`, a pool's `spec.clusterName`), and one IPAddressClaim (`chain.identity`).

Both kinds are descriptors with a version preference (`kube.api.resources.Versioned`: v1beta2,
then v1beta1), read through the generic operations at the version the server serves
(`kube.api.versions`). No Cluster kind at all reads as "no Cluster".
"""

from __future__ import annotations

from dhcpless.kube.api import resources, versions
from dhcpless.kube.api.client import Kube
from dhcpless.models import IPAddressClaim


def cluster_exists(kube: Kube, namespace: str, name: str) -> bool:
    found = kube.find(versions.served_at(kube.api_client, resources.CLUSTERS), namespace, name)
    return found is not None


def get_capi_claim(kube: Kube, namespace: str, name: str) -> IPAddressClaim:
    """One CAPI IPAddressClaim (whose is the claim under our name?); Gone when absent."""
    return kube.get(
        versions.served_at(kube.api_client, resources.CAPI_IPAM_CLAIMS), namespace, name
    )
