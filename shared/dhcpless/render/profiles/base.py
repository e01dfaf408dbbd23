"""What a ramdisk profile is: the one protocol every profile's writer implements.

A profile names the network writer the ramdisk runs (`keys.RamdiskProfile`) and says which
layouts of the rendered OpenStack document that writer would not bring up: data is only worth
releasing if the ramdisk's own writer configures all of it.
"""

from __future__ import annotations

from typing import Protocol

from dhcpless.keys import RamdiskProfile
from dhcpless.render.osdoc import OsDocument
from dhcpless.render.problem import Problem

__all__ = ["RamdiskWriter"]


class RamdiskWriter(Protocol):
    """One ramdisk profile's writer (`registry.PROFILES` lists them by profile)."""

    @property
    def profile(self) -> RamdiskProfile:
        """The profile (`keys.RAMDISK_PROFILE_ANNOTATION`, `DHCPLESS_RAMDISK_PROFILE`)."""
        ...

    def problems(self, doc: OsDocument) -> tuple[Problem, ...]:
        """Every layout of `doc` this writer would not bring up (`ValidationRule.RAMDISK`)."""
        ...
