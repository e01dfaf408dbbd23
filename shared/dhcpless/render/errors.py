"""The one error type of the pure renderer.

Messages match CAPM3's own (`pool not found in cache`, `bad MAC address: ...`) so a
user who knows CAPM3 recognises them; callers add the host and template context.
"""

from __future__ import annotations


class RenderError(ValueError):
    """The template cannot be rendered for this host with these addresses."""
