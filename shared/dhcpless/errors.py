"""The error families, chosen for Knative's retry rules (knative.md §c, DESIGN §3).

* `InvalidInput` -> 400: input we will never accept; Knative does not retry it (it goes to
  the dead-letter sink if one is configured).
* `Transient` -> 503: the world may be different next time (API unreachable, a conflict,
  a precondition that failed because someone else wrote first); Knative retries it.
* `Gone` and `AlreadyExists` are *outcomes*, not errors: the thing the event is about no longer
  exists (answer 204, as CAPM3 returns success on NotFound), or an idempotent create found its
  object already there (success).

Each carries a short, human reason that is safe to log and to send back: never Secret data.
"""

from __future__ import annotations


class DhcplessError(Exception):
    """Base of every error and outcome this project raises on purpose."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidInput(DhcplessError):
    """Permanent: the request or the objects it names can never be handled as they are."""


class Transient(DhcplessError):
    """Retry later: nothing is wrong with the input, the world was not ready."""


class Outcome(DhcplessError):
    """Not an error: a normal result that ends handling early."""


class Gone(Outcome):
    """The object is not there (any more). Handling ends with 204."""


class AlreadyExists(Outcome):
    """A create found the object already there; for an idempotent ensure that is success."""
