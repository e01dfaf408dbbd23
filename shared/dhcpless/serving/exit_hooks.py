"""gunicorn's `worker_exit` hook for every way a function is served (the image's
deploy/gunicorn_conf.py, `dhcpless serve`, the process runner's `serving.gunicorn_slim`).

Exists because most core/v1 Events are posted by a background thread (`kube.posting`): a
worker that stops gracefully (Knative scales it down, a rollout replaces it) first posts what
is still queued, within `posting.FLUSH_SECONDS` (under gunicorn's `graceful_timeout`, itself
under the pod's termination grace period). gunicorn calls the hook in the worker process as
it exits (`Arbiter.spawn_worker`, after `init_process` returns); `posting` also flushes at
interpreter exit, for servers without the hook.
"""

from __future__ import annotations

import logging

from dhcpless.kube.events import posting

log = logging.getLogger(__name__)


def worker_exit(server: object, worker: object) -> None:
    """Post the queued Events before the worker goes; one line if some could not be."""
    if not posting.flush(posting.FLUSH_SECONDS):
        log.error("worker exit: queued Events not all posted within the grace period")
