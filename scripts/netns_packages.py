"""The Debian packages the netns tier (`tests/netns/`) runs, installed by `dev.py test`.

One list, read by the installer here and by the tier's own check (`tests/netns/conftest.py`),
the way `image.py` installs mmdebstrap and buildah: as root with apt-get, only what is missing.
Installing must not start anything on the machine: on a systemd machine the postinst of
`network-manager` would start NetworkManager on the machine's own NICs, so the install runs
with a `policy-rc.d` that answers "not now" (101) to every service start, removed afterwards.
Only the standard library: this runs before the virtual environment exists.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

TOOLS = {
    "NetworkManager": "network-manager",
    "nm-online": "network-manager",
    "dbus-daemon": "dbus-daemon",
    "ifup": "ifupdown",
    "dpkg:ifenslave": "ifenslave",
    "ip": "iproute2",
    "arping": "arping",
    "unshare": "util-linux",
}
"""Command -> the Debian package that brings it; `dpkg:<package>` for a package without a
command (ifenslave is hook scripts only, and a removed package leaves them as conffiles)."""
POLICY = Path("/usr/sbin/policy-rc.d")


def missing() -> list[str]:
    """The packages whose commands this machine lacks (searched on PATH and in /sbin)."""
    path = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])

    def there(name: str) -> bool:
        if name.startswith("dpkg:"):
            return installed(name.removeprefix("dpkg:"))
        return bool(shutil.which(name, path=path))

    return sorted({pkg for name, pkg in TOOLS.items() if not there(name)})


def installed(package: str) -> bool:
    """dpkg's word on `package` (False without dpkg)."""
    if shutil.which("dpkg-query") is None:
        return False
    query = ["dpkg-query", "-W", "-f=${Status}", package]
    done = subprocess.run(query, capture_output=True, text=True, check=False)
    return done.stdout.strip() == "install ok installed"


def ensure() -> str | None:
    """Install what is missing; None when all is there, else why the tier will skip."""
    wanted = missing()
    if not wanted:
        return None
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return f"the netns tier needs {', '.join(wanted)} (Debian packages, as root)"
    print(f"dev.py: installing {' '.join(wanted)} for tests/netns", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    ours = not POLICY.exists()
    if ours:
        POLICY.write_text("#!/bin/sh\nexit 101\n")
        POLICY.chmod(0o755)
    try:
        for argv in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *wanted]):
            if subprocess.call(argv, env=env, stdout=subprocess.DEVNULL):
                return f"{' '.join(argv[:2])} failed: the netns tier will skip"
    finally:
        if ours:
            POLICY.unlink()
    return None
