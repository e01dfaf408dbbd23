"""A process with a running watch cache exits at once when its main thread ends: the
informers are daemon threads and `atexit` closes their streams (a function pod's gunicorn
worker must not hang on shutdown, nor leave a watch open behind it)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support.waits import seconds

pytestmark = pytest.mark.slow

CHILD = """
import sys, time
from kubernetes.client import ApiClient, Configuration
from dhcpless.kube import Kube
from dhcpless.kube.cache.watchcache import WatchCache
configuration = Configuration(host=sys.argv[1])
api = ApiClient(configuration)
kube = Kube(api, cache=WatchCache(api))
print(len(kube.list_pools("default")), flush=True)
(informer,) = kube.cache.informers()
deadline = time.monotonic() + float(sys.argv[2])
while informer._response is None and time.monotonic() < deadline:  # the watch is open
    time.sleep(0.01)
"""


def test_the_process_exits_with_its_watches_open() -> None:
    with SandboxServer() as server:
        server.load_builtin_crds()
        done = subprocess.run(
            [sys.executable, "-c", CHILD, server.url, str(seconds(10))],
            capture_output=True,
            text=True,
            timeout=seconds(30),
        )
        assert (done.returncode, done.stdout.strip()) == (0, "0"), done.stderr
        assert server.audit.counts["watch"] == 1  # it watched until it exited
