"""The independent observer: invariants checked from the API and the wire, never from the
functions.
"""
