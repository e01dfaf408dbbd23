"""How requests reach the API server: client configuration and kubeconfig, timeouts, the
light request path, one-write requests, large bodies, and client-exception translation.
Internal to `dhcpless.kube` (a contract): callers use `dhcpless.kube` or `kube.api`."""
