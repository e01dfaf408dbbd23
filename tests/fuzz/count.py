"""The count of generated inputs, by function, shared by the fuzz tests and the summary hook.

A module of its own: conftest modules are imported under a different name than the tests
import them by, so a counter kept in conftest would exist twice.
"""

from __future__ import annotations

from collections import Counter

GENERATED: Counter[str] = Counter()
"""Inputs answered, by function (or test family)."""
