"""One large JSON document decoded at a time per process (issue 28).

A pool's `status.indexes` and `managedFields` name every claim of the fleet: at 5,000 hosts an
IPPool is some 430 KB of JSON, and decoding it builds about 2.5 MB of Python objects for a
moment. ipclaim-fulfilment meets each pool status write twice at once, as the watch cache's
event (`kube.cache.informer`) and as the IPPool CloudEvent (`serving.web`), and its threads decoded
both together, so the process's peak memory, which the allocator keeps, grew with the fleet.
Taking one process-wide lock for documents of `LARGE_BYTES` or more keeps one such document
alive at a time; smaller ones (every host's objects) never wait.

Who waits: the pool informer's next large event, for as long as a large event's request runs
(the handler of an IPPool event that frees no room returns at once; `functions` decide what
a request holds). Nothing waited on while the lock is held takes it again: a reader of the
watch cache waits at most its first-sync bound (`kube.cache.watchcache`), never for this lock.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

LARGE_BYTES: Final = 64 * 1024
"""A document this size or larger is decoded alone (a 500-host pool is about 45 KB)."""
_GATE: Final = threading.RLock()


@contextmanager
def one_at_a_time(size: int) -> Iterator[None]:
    """Hold the process's large-document lock while a document of `size` bytes is decoded
    and its objects are alive; a small one goes on at once."""
    if size < LARGE_BYTES:
        yield
        return
    with _GATE:
        yield
