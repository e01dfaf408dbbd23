"""One finding of pre-unpause validation: which rule, and a short message naming the culprit."""

from __future__ import annotations

from dataclasses import dataclass

from dhcpless.keys import ValidationRule


@dataclass(frozen=True, slots=True)
class Problem:
    """A reason not to unpause the host yet; `message` names the link/network/address.

    `path` (a JSON path such as `links[2]`) and `check` (a finer rule name, e.g. Ironic's) say
    where and what without any value: data read from a Secret is reported with those alone
    (`render.redact`), since the host's owner may not be allowed to read that Secret."""

    rule: ValidationRule
    message: str
    path: str = ""
    check: str = ""
    hint: str = ""
    """The way out, with no value from the document: kept when the message is redacted."""

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


MAX_PER_RULE = 3
"""Problems reported per rule in one validation: each becomes an Event on the host, so a
document with thousands of bad links costs a bounded number of writes (at most
`MAX_PER_RULE + 1` per rule); the extra one counts the rest of that rule's problems."""


def bounded(problems: tuple[Problem, ...]) -> tuple[Problem, ...]:
    """Per rule, in order: the first `MAX_PER_RULE`, then one saying how many more."""
    seen: dict[ValidationRule, int] = {}
    kept: list[Problem] = []
    for problem in problems:
        seen[problem.rule] = seen.get(problem.rule, 0) + 1
        if seen[problem.rule] <= MAX_PER_RULE:
            kept.append(problem)
    for rule, count in seen.items():
        if count > MAX_PER_RULE:
            more = f"and {count - MAX_PER_RULE} more"
            kept.append(Problem(rule, f"{more} {rule} problems", check=more))
    return tuple(kept)
