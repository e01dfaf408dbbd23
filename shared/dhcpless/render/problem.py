"""One finding of pre-unpause validation: which rule, and a short message naming the culprit."""

from __future__ import annotations

from dataclasses import dataclass

from dhcpless.keys import ValidationRule


@dataclass(frozen=True, slots=True)
class Problem:
    """A reason not to unpause the host yet; `message` names the link/network/address."""

    rule: ValidationRule
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"
