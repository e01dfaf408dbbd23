"""The edge's resource limits: how big an event may be, how long its body may take to arrive,
how many threads stay free for health probes, and how long one Kubernetes API call may take.

Why these numbers (docs/deploy.md "Requests and timeouts", next to `containerConcurrency`):

* `MAX_EVENT_BYTES`: the largest object the API server stores is about 1.5 MiB (etcd's request
  limit), and a Resource-mode event is that object plus a small envelope. Anything bigger is not
  an ApiServerSource event; it is refused with **413**, which Knative does not retry
  (knative/eventing `pkg/kncloudevents/retries.go` `SelectiveRetry`, knative.md §c) before it is
  read, so memory stays bounded.
* `BODY_READ_TIMEOUT`: a body that has not fully arrived by then is refused with **400** (408
  would be retried) and the connection is closed, so a slow sender holds a thread for this long
  at most. The broker sends whole events at once; only a broken or hostile sender is slow.
* `HEAD_READ_TIMEOUT`: a request head (line and headers) not complete this long after a thread
  took its connection ends the connection (`serving.headguard`). The broker, queue-proxy and
  the kubelet send a head in one write; only a broken or hostile client ("header slowloris")
  is slow, and it must not hold the threads the probes need. Short, because under a stream of
  such connections a probe may wait this long for a thread.
* `HEALTH_THREADS`: gunicorn gets this many threads above `containerConcurrency`. queue-proxy
  admits at most `containerConcurrency` requests (knative/serving `pkg/queue/breaker.go`), but
  its readiness probes and the kubelet's go around that limit; with spare threads a probe never
  waits behind work.
* `API_TIMEOUT`: (connect, read) seconds for every Kubernetes API call (`kube.timeouts`): a hung
  call fails as Transient (503, retried) long before Serving's `timeoutSeconds` (60) cuts the
  request.
"""

from __future__ import annotations

from typing import Final

MAX_EVENT_BYTES: Final = 3 * 1024 * 1024
BODY_READ_TIMEOUT: Final = 10.0
HEAD_READ_TIMEOUT: Final = 2.0
HEALTH_THREADS: Final = 2
API_TIMEOUT: Final = (5.0, 20.0)
