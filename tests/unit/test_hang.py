"""Pure parts of hang detection and resync's settings.

Covers: `hanging` is true only for a host we released (annotation), unpaused, inspecting, in
registration error or silently `registering` (Ironic refused its data), for at least the
threshold; the registering Warning names the likely causes and what to check; an unreadable
stamp is not a hang; the release patch stamps the time as its last op; `ResyncSettings`
reads NAMESPACE, then the service-account namespace file, then `default`, and refuses a
malformed threshold.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from dhcpless import keys
from dhcpless.chain import patches
from dhcpless.chain.actions import ReleaseHost
from dhcpless.chain.decide import hang
from dhcpless.chain.predicates import on_host
from dhcpless.models import BareMetalHost
from dhcpless.refs import HostRef
from functions.resync.settings import ResyncSettings
from tests.support import objects

NOW = datetime(2030, 1, 1, 0, 15, tzinfo=UTC)
AT = "2030-01-01T00:00:00Z"  # 900 s before NOW


def host(stamp: str | None = AT, pause: str | None = None, **status: Any) -> BareMetalHost:
    raw = objects.host(pause=pause)
    if stamp is not None:
        raw["metadata"]["annotations"][keys.RELEASED_AT_ANNOTATION] = stamp
    raw["status"] = status or {"provisioning": {"state": "inspecting"}}
    return BareMetalHost.from_k8s(raw)


@pytest.mark.parametrize(
    ("subject", "threshold", "expected"),
    [
        pytest.param(host(), 900.0, True, id="inspecting-exactly-threshold"),
        pytest.param(host(), 901.0, False, id="inspecting-not-yet"),
        pytest.param(
            host(provisioning={"state": "registering"}, errorType=keys.REGISTRATION_ERROR),
            60.0,
            True,
            id="registration-error",
        ),
        pytest.param(
            host(provisioning={"state": "registering"}), 900.0, True, id="registering-silently"
        ),
        pytest.param(
            host(provisioning={"state": "registering"}), 901.0, False, id="registering-not-yet"
        ),
        pytest.param(host(provisioning={"state": "available"}), 60.0, False, id="available"),
        pytest.param(host(stamp=None), 60.0, False, id="not-released-by-us"),
        pytest.param(host(stamp="yesterday"), 60.0, False, id="unreadable-stamp"),
        pytest.param(host(pause=keys.PREPROVISIONING_PAUSE), 60.0, False, id="paused-again"),
    ],
)
def test_hanging(subject: BareMetalHost, threshold: float, expected: bool) -> None:
    assert on_host.hanging(subject, NOW, threshold) is expected


def test_a_silently_registering_host_gets_causes_and_what_to_check() -> None:
    subject = host(provisioning={"state": "registering"})
    (event,) = hang.decide_hang(subject, [], 900.0)
    assert event.reason.severity == "Warning"
    assert event.message.startswith(f"still registering 900s after release at {AT}")
    for words in ("Ironic refused", "BMC is unreachable", "BMO log", "network_id", "credentials"):
        assert words in event.message
    assert hang.decide_hang(subject, [], 900.0) == (event,)  # same hang: same Event


def test_release_patch_stamps_the_time_last() -> None:
    release = ReleaseHost(HostRef(objects.NS, "host-0", "u"), "s", True, "41")
    patch = patches.release_patch(release, AT)
    path = "/metadata/annotations/dhcpless.metal3.io~1released-at"
    assert patch[-1] == {"op": "add", "path": path, "value": AT}
    assert patch[:-1] == patches.release_patch(release)


@pytest.mark.parametrize(
    ("environ", "file_text", "expected"),
    [
        pytest.param({"NAMESPACE": "ns1"}, "pod-ns", ("ns1", 900.0), id="env-wins"),
        pytest.param({}, "pod-ns\n", ("pod-ns", 900.0), id="service-account-file"),
        pytest.param({}, None, ("default", 900.0), id="out-of-cluster"),
        pytest.param({"DHCPLESS_HANG_SECONDS": "60"}, None, ("default", 60.0), id="threshold"),
    ],
)
def test_resync_settings(
    tmp_path: Path, environ: dict[str, str], file_text: str | None, expected: tuple[str, float]
) -> None:
    path = tmp_path / "namespace"
    if file_text is not None:
        path.write_text(file_text)
    settings = ResyncSettings.from_environment(environ, path)
    assert (settings.namespace, settings.hang_seconds) == expected


@pytest.mark.parametrize("value", [pytest.param("soon"), pytest.param("-5"), pytest.param("0")])
def test_malformed_threshold_is_refused(tmp_path: Path, value: str) -> None:
    with pytest.raises(ValidationError):
        ResyncSettings.from_environment({"DHCPLESS_HANG_SECONDS": value}, tmp_path / "none")
