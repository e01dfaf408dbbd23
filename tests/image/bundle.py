"""The image as a test runs it: built by `dev.py image`, unpacked by umoci, run by its config.

No container engine: `umoci unpack` turns the OCI layout into a runtime bundle (`rootfs/` and
the OCI runtime `config.json` the image's ENTRYPOINT, USER and ENV became), and `start` runs
that process the way a pod's container runs it: in its own mount namespace (`unshare`),
chrooted into the root file system mounted read-only (the Services'
`readOnlyRootFilesystem`), as the image's user, with a tmpfs `/dev/shm` (gunicorn's heartbeat)
and the test's own directory on `/tmp` (a kubeconfig to reach the API, as a pod's mounted
token would). The network is the machine's: the test reaches the function on 127.0.0.1.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tests.support.waits import seconds

ROOT = Path(__file__).resolve().parents[2]
BUILD_TIMEOUT = 900.0
"""A fresh clone makes its Debian base too: about a minute on two quiet cores."""


@dataclass(frozen=True)
class Bundle:
    """An unpacked image: its root file system and the process its config runs."""

    rootfs: Path
    args: list[str]
    env: dict[str, str]
    user: str


def cannot_run() -> str | None:
    """Why this machine cannot run the tier at all, else None (a missing tool is installed)."""
    missing = [t for t in ("mmdebstrap", "buildah", "umoci") if shutil.which(t) is None]
    if missing and shutil.which("apt-get") is None:
        return f"no apt-get to install {', '.join(missing)}"
    probe = subprocess.run(["unshare", "--mount", "true"], capture_output=True, check=False)
    if probe.returncode:
        return f"unshare cannot make a mount namespace here: {probe.stderr.decode()}"
    return None


def build(out: Path) -> Path:
    """`python3 scripts/dev.py image --out OUT`, the command the README names."""
    command = [sys.executable, str(ROOT / "scripts" / "dev.py"), "image", "--out", str(out)]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=seconds(BUILD_TIMEOUT), check=False
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


def unpack(layout: Path, dest: Path) -> Bundle:
    """`umoci unpack` of the layout's `dev` tag into `dest`."""
    subprocess.run(
        ["umoci", "unpack", "--image", f"{layout}:dev", str(dest)],
        capture_output=True,
        timeout=seconds(120),
        check=True,
    )
    process = json.loads((dest / "config.json").read_text())["process"]
    env = dict(item.split("=", 1) for item in process["env"])
    user = f"{process['user']['uid']}:{process['user']['gid']}"
    return Bundle(dest / "rootfs", process["args"], env, user)


def start_command(
    bundle: Bundle,
    argv: list[str],
    env: Mapping[str, str] | None = None,
    tmp: Path | None = None,
) -> list[str]:
    """The command that runs `argv` in the image as its user, on a read-only root: `env` on
    top of the image's, `tmp` (world-writable) as its /tmp."""
    root = str(bundle.rootfs)
    mounts = [
        f"mount --bind {root} {root}",
        f"mount -t proc proc {root}/proc",
        f"mount --rbind /dev {root}/dev",
        f"mount -t tmpfs -o mode=1777 shm {root}/dev/shm",
        *([f"mount --bind {shlex.quote(str(tmp))} {root}/tmp"] if tmp else []),
        f"mount -o remount,bind,ro {root}",
    ]
    variables = [f"{k}={v}" for k, v in {**bundle.env, **(env or {})}.items()]
    run = ["chroot", f"--userspec={bundle.user}", root, "/usr/bin/env", "-i", *variables]
    script = " && ".join([*mounts, "exec " + shlex.join([*run, *argv])])
    return ["unshare", "--mount", "sh", "-c", script]


def start(bundle: Bundle, env: Mapping[str, str], tmp: Path, log: Path) -> subprocess.Popen[bytes]:
    """The image's own process (its ENTRYPOINT) in the image; output appended to `log`.

    `unshare`, `sh` and `chroot` exec in turn, so the returned process *is* gunicorn's
    arbiter: SIGTERM to it is a pod's stop, and its mounts go with it.
    """
    with log.open("ab") as sink:
        return subprocess.Popen(
            start_command(bundle, bundle.args, env, tmp),
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
