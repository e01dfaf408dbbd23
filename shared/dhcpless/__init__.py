"""metal3-dhcpless: static pre-provisioning network data for Metal3 hosts, on Knative.

The library every function imports: typed models, CloudEvent parsing, the renderer,
the Kubernetes adapter, and the sandbox used by the demo and the tests.
"""

__version__ = "0.1.0"
