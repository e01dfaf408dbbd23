"""Decision code shared by the functions (and `resync`): per-host state, pure decisions, acts.

`gate` says whether a host is ours to work on; `lookup` gathers the typed state one host needs
(no fleet-wide LISTs); `decide` turns state into frozen `actions`; `act` performs them through
the `kube` adapter. Every function is a thin composition of these.
"""
