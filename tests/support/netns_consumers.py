"""The real consumers of what glean wrote, run inside a host's namespace.

- **NetworkManager** (Debian's 1.42, for the el10 keyfiles): it needs a system D-Bus, so each
  host gets a private `dbus-daemon` (its own config and socket in the lab's directory; NM finds
  it through `DBUS_SYSTEM_BUS_ADDRESS`). NM runs `--no-daemon` in a mount namespace of its own
  (`unshare --mount`) where glean's files are where NM reads them (`/etc/NetworkManager`
  bound from the lab), `/run` is a fresh tmpfs and `/var/lib/NetworkManager` the lab's. `/sys`
  is remounted read-only there: NM's platform then does not wait for udev to announce each
  device (no udevd runs here), as in a container. `nm-online -s` (NM's own "startup complete",
  reached once every activation has ended) bounds the wait. Debian builds no `ifcfg-rh`
  settings plugin (only `keyfile` and `ifupdown`), so the el9 ifcfg files have no consumer here.
- **ifupdown** (Debian's `ifup`, for the debian writer): `ifup -a -i <glean's interfaces>`,
  whose `source /etc/network/interfaces.d/*.cfg` finds glean's `interfaces.d/` bound over the
  machine's (its packages' hooks stay: `ifenslave`'s makes bonds), a fresh `/run` for its
  state and `/var/lib/dhcp` for a DHCP client's leases.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Mapping
from pathlib import Path

from tests.support.netns import Host, Lab
from tests.support.waits import eventually, seconds

NM_CONNECTIONS = "/etc/NetworkManager/system-connections/"
NM_CONF = """[main]
plugins=keyfile
no-auto-default=*
autoconnect-retries-default=1
dns=none
rc-manager=unmanaged

[keyfile]
unmanaged-devices=except:interface-name:eth*

[connection]
ipv4.dhcp-timeout=1
ipv6.dhcp-timeout=1
ipv6.ra-timeout=1
"""
"""Keyfiles only, no profile NM would invent, resolv.conf left to glean (the ramdisk's
`nm-no-resolv-handling.conf` that glean installs says `dns=none` too), and every device but
the host's NICs (and VLANs on them, glean's `<nic>.<vid>`) unmanaged. DHCP and router
advertisements (glean's fallback, SLAAC), which nothing answers here, give up after 1 s
(NM's default: 45 s) and an activation is tried once (NM's default: four times), so a wait
on them stays short (NetworkManager.conf(5): `[connection]` defaults,
`autoconnect-retries-default`)."""
BUS_CONF = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/><allow own="*"/>
    <allow send_type="method_call"/><allow send_type="signal"/>
    <allow send_type="method_return"/><allow send_type="error"/>
    <allow receive_type="method_call"/><allow receive_type="signal"/>
    <allow receive_type="method_return"/><allow receive_type="error"/>
  </policy>
</busconfig>
"""
"""A bus for one NetworkManager: only root processes of this test reach its socket."""
NM_STARTUP = 20.0
IFUP_TIMEOUT = 30.0


def _in_mount_namespace(host: Host, steps: list[str], command: list[str]) -> list[str]:
    script = " && ".join([*steps, "exec " + shlex.join(command)])
    return ["ip", "netns", "exec", host.name, "unshare", "--mount", "sh", "-c", script]


def network_manager(lab: Lab, host: Host, files: Mapping[str, str]) -> str:
    """Start a bus and NetworkManager on glean's keyfiles; return once NM's startup is
    complete (every activation done). The returned text is NM's log so far."""
    work = lab.work / host.name
    etc, lib = work / "etc", work / "lib"
    (etc / "system-connections").mkdir(parents=True)
    lib.mkdir()
    (etc / "NetworkManager.conf").write_text(NM_CONF)
    for path, content in files.items():
        if path.startswith(NM_CONNECTIONS):
            target = etc / "system-connections" / path.removeprefix(NM_CONNECTIONS)
            target.write_text(content)
            target.chmod(0o600)  # NM ignores a keyfile others can read
    socket = work / "bus"
    (work / "bus.conf").write_text(BUS_CONF.format(socket=socket))
    lab.spawn(["dbus-daemon", "--nofork", "--nopidfile", f"--config-file={work / 'bus.conf'}"],
              work / "bus.log")  # fmt: skip
    eventually(socket.exists, 5, "the private D-Bus socket")
    env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=f"unix:path={socket}")
    steps = [
        "mount -o remount,ro /sys",
        f"mount --bind {shlex.quote(str(etc))} /etc/NetworkManager",
        "mount -t tmpfs none /run",
        f"mount --bind {shlex.quote(str(lib))} /var/lib/NetworkManager",
    ]
    nm = _in_mount_namespace(host, steps, ["NetworkManager", "--no-daemon", "--debug"])
    done, log = _startup(lab, nm, work / "nm.log", env)
    if done and not log.strip():
        # NM wrote not one line (its --debug start logs at once): it never got going, seen only
        # on a machine loaded far past its cores. Once more, from scratch; a NM that starts and
        # fails its activations still fails here.
        print(f"{host.name}: NetworkManager wrote nothing in its startup window; starting again")
        lab.stop_last()
        done, log = _startup(lab, nm, work / "nm.log", env)
    if done:
        raise AssertionError(f"NetworkManager did not complete its startup: {log[-3000:]}")
    return log


def _startup(lab: Lab, nm: list[str], log: Path, env: Mapping[str, str]) -> tuple[int, str]:
    """Spawn NM and wait for `nm-online -s` (startup complete): its exit status and NM's log."""
    lab.spawn(nm, log, env)
    wait = seconds(NM_STARTUP)
    done = subprocess.run(
        ["nm-online", "-s", "-q", "-t", str(int(wait))],
        env=dict(env), capture_output=True, text=True, timeout=wait + 5, check=False,
    )  # fmt: skip
    return done.returncode, log.read_text(errors="replace")


def ifupdown(lab: Lab, host: Host, files: Mapping[str, str]) -> tuple[int, str]:
    """`ifup -a` on glean's interfaces files: its exit status and output."""
    etc = lab.work / host.name / "network"
    (etc / "interfaces.d").mkdir(parents=True)
    for path, content in files.items():
        if path.startswith("/etc/network/"):
            (etc / path.removeprefix("/etc/network/")).write_text(content)
    steps = [
        f"mount --bind {shlex.quote(str(etc / 'interfaces.d'))} /etc/network/interfaces.d",
        "mount -t tmpfs none /run",
        "mkdir /run/network",
        "{ [ ! -d /var/lib/dhcp ] || mount -t tmpfs none /var/lib/dhcp; }",  # a DHCP client's
    ]  # leases, if one runs, stay in there
    argv = _in_mount_namespace(host, steps, ["ifup", "-a", "-i", str(etc / "interfaces")])
    done = subprocess.run(
        argv, capture_output=True, text=True, timeout=seconds(IFUP_TIMEOUT), check=False
    )
    return done.returncode, done.stdout + done.stderr
