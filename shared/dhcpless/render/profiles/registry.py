"""Every ramdisk profile's writer, by profile: one line each; and choosing the profile.

Data is only worth releasing if the ramdisk's own writer configures all of it, and writers
differ: the community CentOS Stream IPA ramdisk runs glean's redhat writer once per NIC (ifcfg
files on el9, NetworkManager keyfiles on el10), a Debian-based ramdisk runs glean's debian
writer, and an image built with nmstate applies the nmstate document instead (glean is not
involved). The operator declares it (`DHCPLESS_RAMDISK_PROFILE`); a template may override it
(`keys.RAMDISK_PROFILE_ANNOTATION`); `dhcpless render --ramdisk-profile` beats both.
"""

from __future__ import annotations

from typing import Final

from dhcpless.keys import DEFAULT_PROFILE, RamdiskProfile
from dhcpless.render.osdoc import OsDocument
from dhcpless.render.problem import Problem
from dhcpless.render.profiles.base import RamdiskWriter
from dhcpless.render.profiles.glean import EVERY, KEYFILE, REDHAT, Glean
from dhcpless.render.profiles.nmstate import NMSTATE

__all__ = ["PROFILES", "UnknownProfile", "choose_profile", "known", "lookup", "ramdisk_problems"]

_P = RamdiskProfile
PROFILES: Final[dict[RamdiskProfile, RamdiskWriter]] = {
    _P.GLEAN_EL9: Glean(_P.GLEAN_EL9, (*EVERY, *REDHAT)),
    _P.GLEAN_EL10: Glean(_P.GLEAN_EL10, (*EVERY, *REDHAT, *KEYFILE)),
    _P.GLEAN_DEBIAN: Glean(_P.GLEAN_DEBIAN, EVERY),
    _P.NMSTATE: NMSTATE,
}


def ramdisk_problems(doc: OsDocument, profile: RamdiskProfile) -> tuple[Problem, ...]:
    """Every layout of `doc` the `profile` ramdisk would not bring up (none for nmstate)."""
    return PROFILES[profile].problems(doc)


def lookup(name: str) -> RamdiskProfile | None:
    """The profile `name` selects, or None when no registered profile has that name."""
    return next((p for p in PROFILES if p.value == name), None)


def known() -> str:
    """The profiles' names, comma-separated, for a message about a name that is none of them."""
    return ", ".join(p.value for p in PROFILES)


class UnknownProfile(ValueError):
    """A profile name that is none of the registered profiles."""


def choose_profile(*choices: str | None) -> RamdiskProfile:
    """The first given choice (flag, template annotation, environment), else the default."""
    for choice in choices:
        if choice:
            found = lookup(choice.strip())
            if found is None:
                raise UnknownProfile(f"unknown ramdisk profile {choice!r} (known: {known()})")
            return found
    return DEFAULT_PROFILE
