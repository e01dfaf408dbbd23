"""The sandbox: an in-memory Kubernetes API and stand-ins for the world around the functions."""
