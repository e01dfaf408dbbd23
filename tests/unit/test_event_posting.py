"""Events off the handler's path (`dhcpless.kube.events.posting`,
`dhcpless.kube.events.recorder`): a bounded queue drained by one thread, as client-go's
`tools/record` and kopf's poster do.

Covers: queued Events are posted in order and `flush` waits for them; a full queue drops
(never blocks the handler); the same Event queued twice is posted once; failures are retried a
few times and an existing Event is done; a log line names the Event, never the error's text
(it may quote a body); `flush` gives up at its deadline; the release's Event is posted by the
handler itself before `record` returns, the others by the queue. No API server: the posts
are callables.
"""

from __future__ import annotations

import importlib
import logging
import threading
from typing import Any, cast

import pytest
from gunicorn.config import Config  # type: ignore[import-untyped]

from dhcpless.errors import AlreadyExists, InvalidInput, Transient
from dhcpless.keys import FunctionName
from dhcpless.kube.api.client import Kube
from dhcpless.kube.events import posting, recorder
from dhcpless.kube.events.posting import Pending, Poster, post_with_retries
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef
from dhcpless.serving import exit_hooks

HOST = HostRef("metal3", "host-0", "uid-1")
DEADLINE = 30.0


class Gate:
    """A post that waits for `open()`: holds the posting thread while a test queues more."""

    def __init__(self) -> None:
        self.entered, self.opened = threading.Event(), threading.Event()

    def __call__(self) -> None:
        self.entered.set()
        assert self.opened.wait(DEADLINE)


def _recording(done: list[str], name: str) -> Pending:
    return Pending(name, lambda: done.append(name))


def test_queued_events_are_posted_in_order_and_flush_waits_for_them() -> None:
    poster, done = Poster(), list[str]()
    for name in ("a", "b", "c"):
        assert poster.submit(_recording(done, name))
    assert poster.flush(DEADLINE)
    assert done == ["a", "b", "c"]


def test_a_full_queue_drops_at_once_instead_of_blocking() -> None:
    poster, done, gate = Poster(max_pending=1), list[str](), Gate()
    poster.submit(Pending("held", gate))
    assert gate.entered.wait(DEADLINE)  # the thread holds "held": the queue is empty
    assert poster.submit(_recording(done, "queued"))
    assert not poster.submit(_recording(done, "dropped"))
    gate.opened.set()
    assert poster.flush(DEADLINE)
    assert (done, poster.dropped) == (["queued"], 1)


def test_the_same_event_queued_twice_is_posted_once() -> None:
    poster, done, gate = Poster(), list[str](), Gate()
    poster.submit(Pending("held", gate))
    assert gate.entered.wait(DEADLINE)
    assert poster.submit(_recording(done, "same")) and poster.submit(_recording(done, "same"))
    gate.opened.set()
    assert poster.flush(DEADLINE)
    assert done == ["same"]


def test_flush_gives_up_at_its_deadline() -> None:
    poster, gate = Poster(), Gate()
    poster.submit(Pending("held", gate))
    assert not poster.flush(0.1)
    gate.opened.set()
    assert poster.flush(DEADLINE)


class Flaky:
    """Fails with `error` `failures` times, then posts."""

    def __init__(self, failures: int, error: Exception) -> None:
        self.failures, self.error, self.calls = failures, error, 0

    def __call__(self) -> None:
        self.calls += 1
        if self.calls <= self.failures:
            raise self.error


@pytest.mark.parametrize(
    ("failures", "error", "posted", "calls"),
    [
        pytest.param(0, Transient("x"), True, 1, id="first-try"),
        pytest.param(2, Transient("x"), True, 3, id="third-try"),
        pytest.param(5, Transient("x"), False, posting.TRIES, id="given-up"),
        pytest.param(5, AlreadyExists("x"), True, 1, id="already-there-is-done"),
        pytest.param(5, InvalidInput("x"), False, 1, id="refused-for-good-no-retry"),
    ],
)
def test_posts_are_retried_a_few_times(
    failures: int, error: Exception, posted: bool, calls: int
) -> None:
    post = Flaky(failures, error)
    assert post_with_retries(Pending("e", post), retry_seconds=0.0) is posted
    assert post.calls == calls


def test_a_failed_post_logs_the_event_name_never_the_error_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    secret = "bmV0d29yay1kYXRh-from-a-secret"
    with caplog.at_level(logging.WARNING, logger=posting.__name__):
        post_with_retries(Pending("host-0.abc", Flaky(9, Transient(secret))), retry_seconds=0.0)
    assert "host-0.abc" in caplog.text and "Transient" in caplog.text
    assert secret not in caplog.text


class Events:
    """A stand-in for the adapter's one Event call: records the reasons, in order."""

    def __init__(self) -> None:
        self.reasons: list[str] = []

    def create_event(self, namespace: str, body: dict[str, Any]) -> None:
        self.reasons.append(str(body["reason"]))


@pytest.mark.parametrize(
    ("reason", "inline"),
    [
        pytest.param(Reason.HOST_RELEASED, True, id="release-posted-by-the-handler"),
        pytest.param(Reason.TEMPLATE_CHOSEN, False, id="progress-queued"),
        pytest.param(Reason.NO_TEMPLATE, False, id="warning-queued"),
    ],
)
def test_only_the_release_is_posted_before_record_returns(reason: Reason, inline: bool) -> None:
    events, gate = Events(), Gate()
    posting.POSTER.submit(Pending(f"held-{reason}", gate))  # the queue cannot post meanwhile
    assert gate.entered.wait(DEADLINE)
    recorder.record(cast(Kube, events), HOST, reason, f"because {reason}", "c")
    assert events.reasons == ([reason.value] if inline else [])
    gate.opened.set()
    assert recorder.flush(DEADLINE)
    assert events.reasons == [reason.value]
    assert (reason in recorder.INLINE) is inline


def test_the_worker_exit_hook_posts_what_is_queued() -> None:
    """gunicorn calls `worker_exit` as a worker stops gracefully: the queue is empty after."""
    done = list[str]()
    posting.POSTER.submit(Pending("at-exit", lambda: done.append("at-exit")))
    exit_hooks.worker_exit(None, None)
    assert done == ["at-exit"]


@pytest.mark.parametrize(
    "module",
    [
        pytest.param("dhcpless.serving.gunicorn_slim", id="process-runner"),
        pytest.param("deploy.gunicorn_conf", id="image"),
    ],
)
def test_every_gunicorn_config_sets_the_hook(module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """gunicorn takes the module's `worker_exit` as its setting (a callable of two arguments)."""
    monkeypatch.setenv("FUNCTION", FunctionName.RESYNC.value)
    hook = importlib.import_module(module).worker_exit
    config = Config()
    config.set("worker_exit", hook)
    assert config.worker_exit is exit_hooks.worker_exit


class FailingOnce(Events):
    """The API refuses the first create (a 503), then accepts."""

    def create_event(self, namespace: str, body: dict[str, Any]) -> None:
        if not hasattr(self, "failed"):
            self.failed = True
            raise Transient("server busy")
        super().create_event(namespace, body)


def test_a_release_event_that_fails_inline_is_queued_not_raised() -> None:
    """The release is made: failing the handler now would lose its Event (no retry says it
    again), so the failed post goes to the queue and is posted from there."""
    events = FailingOnce()
    recorder.record(cast(Kube, events), HOST, Reason.HOST_RELEASED, "released", "c")
    assert recorder.flush(DEADLINE)
    assert events.reasons == [Reason.HOST_RELEASED.value]
