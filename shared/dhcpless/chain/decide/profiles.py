"""Which ramdisk a host's data is judged for: the template's profile, else the fleet's.

The operator declares the fleet's ramdisk (`DHCPLESS_RAMDISK_PROFILE`, `Settings`); a template
may override it for its hosts (`keys.RAMDISK_PROFILE_ANNOTATION`), e.g. `nmstate` for bonded
hosts booted by an image that applies nmstate. The profile the data was judged for is recorded
on the Secret we write, so the release check (and BMO's stand-in) judge it for the same one; a
Secret we did not write is judged for the fleet's ramdisk.
"""

from __future__ import annotations

from dhcpless import keys
from dhcpless.chain import identity
from dhcpless.chain.facts import Found
from dhcpless.keys import RamdiskProfile
from dhcpless.models import BareMetalHost, Secret
from dhcpless.refs import HostRef
from dhcpless.render.profiles import registry


def template_profile(found: Found, fleet: RamdiskProfile) -> RamdiskProfile | str:
    """The template's profile, the fleet's without one, or why its annotation is unusable."""
    value = (found.template.metadata.annotations or {}).get(keys.RAMDISK_PROFILE_ANNOTATION)
    if value is None:
        return fleet
    profile = registry.lookup(value.strip())
    if profile is None:
        known = registry.known()
        return f"annotation {keys.RAMDISK_PROFILE_ANNOTATION}={value!r} is not one of: {known}"
    return profile


def secret_profile(host: BareMetalHost, secret: Secret, fleet: RamdiskProfile) -> RamdiskProfile:
    """What our Secret's data was judged for (its record), else the fleet's ramdisk."""
    if identity.standing(secret.metadata, HostRef.of(host)) is not identity.Standing.OURS:
        return fleet
    value = (secret.metadata.annotations or {}).get(keys.RAMDISK_PROFILE_ANNOTATION, "")
    return registry.lookup(value) or fleet
