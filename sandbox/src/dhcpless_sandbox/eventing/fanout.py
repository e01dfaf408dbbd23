"""The synchronous fan-out: every matching Trigger's delivery at once, then wait for all.

Exists apart from the broker because it is the one piece of the installed default's delivery
model that the asynchronous mode lacks: knative/eventing `pkg/channel/fanout/
fanout_event_handler.go` (`dispatch`) starts one goroutine per subscription and collects every
result before the channel answers, so the sender waits for the slowest delivery, retries and
dead letter included. One thread per delivery here, the first on the caller's thread unless
`inline_first` is off: a reply crossing the HTTP hop back to ingress gets a thread, hence a
stack and a recursion limit, of its own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def fan_out(
    targets: Sequence[T], deliver: Callable[[T], bool], *, inline_first: bool = True
) -> bool:
    """Run `deliver` for every target in parallel; True when every one returned True."""
    results = [False] * len(targets)

    def run(index: int) -> None:
        results[index] = deliver(targets[index])

    first = 1 if inline_first and targets else 0
    threads = [
        threading.Thread(target=run, args=(index,), daemon=True, name="fanout")
        for index in range(first, len(targets))
    ]
    for thread in threads:
        thread.start()
    if first:
        run(0)
    for thread in threads:
        thread.join()
    return all(results)
