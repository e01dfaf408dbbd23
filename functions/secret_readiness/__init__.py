"""secret-readiness: a Secret with valid network data releases the host that uses it."""
