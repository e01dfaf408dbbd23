"""Problems found in a Secret's data, said without the data (issue 14, finding 4).

A BareMetalHost can name any Secret of its namespace in `preprovisioningNetworkDataName`,
including one its creator may not read. Whatever we say about that Secret lands in places the
creator can read (Events on the host) or others can (the functions' logs, HTTP answers), so
problems found in a Secret's network data are reported by rule and JSON path only: the rule
names what is wrong, the path where, and no string read from the document is repeated (link
ids, names, addresses, bond options, the parser's messages). The render path keeps its fuller
messages: what it validates was rendered from a template and IPAM, not read from a Secret.
"""

from __future__ import annotations

from collections.abc import Iterable

from dhcpless.render.problem import Problem


def redacted(problem: Problem) -> Problem:
    """The same rule, its message replaced by the rule's finer name and the path alone."""
    check = f" ({problem.check})" if problem.check else ""
    where = f" at {problem.path}" if problem.path else ""
    hint = f": {problem.hint}" if problem.hint else ""
    message = f"failed{check}{where}{hint}"
    return Problem(problem.rule, message, problem.path, problem.check, problem.hint)


def redacted_all(problems: Iterable[Problem]) -> tuple[Problem, ...]:
    """`redacted` for each, in order; the count problems of `bounded` hold no data either."""
    return tuple(redacted(p) for p in problems)
