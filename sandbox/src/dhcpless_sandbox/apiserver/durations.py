"""How long ago, as kubectl prints it (`42s`, `3h5m`): shared by the Table printers."""

from __future__ import annotations


def human_age(seconds: int) -> str:
    """apimachinery's duration.HumanDuration, close enough for reading."""
    minutes, hours, days = seconds // 60, seconds // 3600, seconds // 86400
    if seconds < 120:
        return f"{seconds}s"
    if minutes < 10:
        return f"{minutes}m{seconds % 60}s" if seconds % 60 else f"{minutes}m"
    if hours < 3:
        return f"{minutes}m"
    if hours < 8:
        return f"{hours}h{minutes % 60}m" if minutes % 60 else f"{hours}h"
    if days < 2:
        return f"{hours}h"
    return f"{days}d{hours % 24}h" if days < 8 and hours % 24 else f"{days}d"
