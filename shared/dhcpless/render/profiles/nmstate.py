"""`nmstate`: an image that applies the nmstate document; glean is not involved.

nmstate configures bonds, VLANs and several networks per link as the document says, so no
ramdisk rule applies to it (`profiles.glean` lists what glean loses).
"""

from __future__ import annotations

from dataclasses import dataclass

from dhcpless.keys import RamdiskProfile
from dhcpless.render.osdoc import OsDocument
from dhcpless.render.problem import Problem

__all__ = ["NMSTATE", "Nmstate"]


@dataclass(frozen=True, slots=True)
class Nmstate:
    """The writer that brings up every layout the other rules accept."""

    profile: RamdiskProfile = RamdiskProfile.NMSTATE

    def problems(self, doc: OsDocument) -> tuple[Problem, ...]:
        return ()


NMSTATE = Nmstate()
