"""The thin adapter over the `kubernetes` client: generic typed operations over a table of
resources, named calls on them (`KubeApi`, the Protocol they satisfy), one exception
translation, and the core/v1 Event recorder."""

from dhcpless.kube.api.client import Kube, from_environment
from dhcpless.kube.refs import HostRef
from dhcpless.kube.transport.errors import PreconditionFailed, Verb
from dhcpless.kubeapi import KubeApi

__all__ = ["HostRef", "Kube", "KubeApi", "PreconditionFailed", "Verb", "from_environment"]
