"""The thin adapter over the `kubernetes` client: typed calls, one exception translation,
and the core/v1 Event recorder."""

from dhcpless.kube.client import Kube, from_environment
from dhcpless.kube.errors import PreconditionFailed, Verb
from dhcpless.kube.refs import HostRef

__all__ = ["HostRef", "Kube", "PreconditionFailed", "Verb", "from_environment"]
