"""Ramdisk profiles: which network writer the ramdisk runs, and what it cannot configure.

One `RamdiskWriter` per `keys.RamdiskProfile`, listed once in `registry`; the glean writers'
rules are in `glean`. Every place that branches on the profile asks the registry.
"""
