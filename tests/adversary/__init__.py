"""The adversary's round (issue 24), kept as a suite: attacks by a namespace user.

Each test is one attack by `tenant.Tenant`, a ServiceAccount with only the rights the test
names, against the chain's functions on the sandbox API server: it must never make us give a
host an address that is not its own, nor strand a host without a Warning.
"""
