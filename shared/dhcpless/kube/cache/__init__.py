"""The watch cache: one reflector (LIST then WATCH) per kind and namespace, what it keeps of
each object, and the reads it answers. Internal to `dhcpless.kube` (a contract)."""
