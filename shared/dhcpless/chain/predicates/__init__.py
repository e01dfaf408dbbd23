"""Pure predicates on one host, on claim ownership, on what IPAM answered and on a pool's room:
what gather asks to know what to read, and decide asks to know what to do (neither imports the
other; the `layers` contract in pyproject.toml holds it).
"""
