"""Shared test support: waits on conditions with deadlines scaled to the machine."""
