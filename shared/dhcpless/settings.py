"""What every function is configured with, read from the environment once, in its app factory.

A function's `create_app` builds its settings with `from_environment()` unless a caller (the
sandbox, a test) passes them, and hands the one frozen object down: nothing below the factory
reads `os.environ`. A function with knobs of its own subclasses `Settings` with its fields and
its own `from_environment` (resync: `functions/resync/settings.py`). Kept free of Flask and
the adapter so decision code can take settings without importing either.
The variables are listed in the README ("Configuration"). One is not a field here because it
configures the adapter, which is built before the settings: `DHCPLESS_WATCH_CACHE`
(`keys.WATCH_CACHE_ENV`, read by `kube.from_environment`; `off` turns the watch cache off).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Self

from pydantic import BaseModel, ConfigDict

from dhcpless.keys import (
    DEFAULT_PROFILE,
    EVENT_REPORTING_COMPONENT,
    RAMDISK_PROFILE_ENV,
    RamdiskProfile,
)


class Settings(BaseModel):
    """The settings every function has; `ramdisk_profile` is read from the environment."""

    model_config = ConfigDict(frozen=True)

    component: str = EVENT_REPORTING_COMPONENT
    """`reportingComponent` / `source.component` of the core/v1 Events we record."""
    record_events: bool = True
    """Write core/v1 Events on hosts; off only for tests that count writes."""
    ramdisk_profile: RamdiskProfile = DEFAULT_PROFILE
    """The fleet's ramdisk writer (`DHCPLESS_RAMDISK_PROFILE`): what the data must suit, unless
    a template says otherwise (`keys.RAMDISK_PROFILE_ANNOTATION`)."""

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Self:
        """The settings as the environment (default `os.environ`) gives them; a malformed
        value stops the app at start (a pydantic error naming the field)."""
        env = os.environ if environ is None else environ
        return cls.model_validate(cls.fields_from(env))

    @classmethod
    def fields_from(cls, env: Mapping[str, str]) -> dict[str, object]:
        """The field values `env` sets (a subclass adds its own)."""
        profile = env.get(RAMDISK_PROFILE_ENV, "").strip()
        return {"ramdisk_profile": profile} if profile else {}
