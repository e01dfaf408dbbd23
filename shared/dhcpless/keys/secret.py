"""The Secret we write: its name and its data keys."""

from __future__ import annotations

from typing import Final

__all__ = ["NETWORK_DATA_KEY", "NMSTATE_KEY", "SECRET_NAME_SUFFIX"]

NETWORK_DATA_KEY: Final = "networkData"
"""Secret data key BMO reads for preprovisioning network data."""

NMSTATE_KEY: Final = "nmstate"
SECRET_NAME_SUFFIX: Final = "-preprov-networkdata"
"""The Secret we write for host `h` is `h` + this suffix, in the host's namespace."""
