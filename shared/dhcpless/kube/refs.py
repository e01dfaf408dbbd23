"""`HostRef` lives in `dhcpless.refs` (pure, importable by decisions); kept here for callers."""

from dhcpless.refs import HostRef

__all__ = ["HostRef"]
