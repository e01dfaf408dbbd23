"""Which network writer the fleet's ramdisk runs: what the data we release must suit.

Data is only worth releasing if the ramdisk's own writer configures all of it, and writers
differ: the community CentOS Stream IPA ramdisk runs glean's redhat writer once per NIC (ifcfg
files on el9, NetworkManager keyfiles on el10), a Debian-based ramdisk runs glean's debian
writer, and an image built with nmstate applies the nmstate document instead (glean is not
involved). The operator declares it (`DHCPLESS_RAMDISK_PROFILE`); a template may override it
(`keys.RAMDISK_PROFILE_ANNOTATION`); `dhcpless render --ramdisk-profile` beats both.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["DEFAULT_PROFILE", "RamdiskProfile", "UnknownProfile", "choose_profile"]


class RamdiskProfile(StrEnum):
    """The ramdisk's network writer."""

    GLEAN_EL9 = "glean-el9"
    GLEAN_EL10 = "glean-el10"
    GLEAN_DEBIAN = "glean-debian"
    NMSTATE = "nmstate"

    @property
    def runs_glean(self) -> bool:
        """Whether glean writes this ramdisk's network (nmstate images do not)."""
        return self is not RamdiskProfile.NMSTATE

    @property
    def redhat(self) -> bool:
        """glean's redhat writer (`write_redhat_interfaces`) on a CentOS Stream ramdisk."""
        return self in (RamdiskProfile.GLEAN_EL9, RamdiskProfile.GLEAN_EL10)


DEFAULT_PROFILE = RamdiskProfile.GLEAN_EL9
"""The community IPA ramdisk: CentOS Stream 9, glean with NetworkManager."""


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
