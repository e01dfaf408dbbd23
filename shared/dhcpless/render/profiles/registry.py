"""Which network writer the fleet's ramdisk runs: what the data we release must suit.

Data is only worth releasing if the ramdisk's own writer configures all of it, and writers
differ: the community CentOS Stream IPA ramdisk runs glean's redhat writer once per NIC (ifcfg
files on el9, NetworkManager keyfiles on el10), a Debian-based ramdisk runs glean's debian
writer, and an image built with nmstate applies the nmstate document instead (glean is not
involved). The operator declares it (`DHCPLESS_RAMDISK_PROFILE`); a template may override it
(`keys.RAMDISK_PROFILE_ANNOTATION`); `dhcpless render --ramdisk-profile` beats both.
"""

from __future__ import annotations

from dhcpless.keys import DEFAULT_PROFILE, RamdiskProfile

__all__ = ["DEFAULT_PROFILE", "RamdiskProfile", "UnknownProfile", "choose_profile"]


class UnknownProfile(ValueError):
    """A profile name that is none of `RamdiskProfile`'s values."""


def choose_profile(*choices: str | None) -> RamdiskProfile:
    """The first given choice (flag, template annotation, environment), else the default."""
    for choice in choices:
        if choice:
            try:
                return RamdiskProfile(choice.strip())
            except ValueError:
                known = ", ".join(p.value for p in RamdiskProfile)
                raise UnknownProfile(
                    f"unknown ramdisk profile {choice!r} (known: {known})"
                ) from None
    return DEFAULT_PROFILE
