"""`dev.py image --out DIR`: the Containerfile built into an OCI image layout, as a user would.

No registry and no daemon: `mmdebstrap` makes a Debian root file system from this machine's own
apt sources (the release it runs), `buildah` (vfs storage, `--isolation chroot`, no layers)
turns it into the base image and builds the Containerfile on it with `--build-arg BASE=`, the
ignore file honoured as podman's would be, and `buildah push` writes the result to DIR as an
OCI layout tagged `metal3-dhcpless:dev` (unpack it with `umoci`). The Python dependencies reach
the build through this environment's own pip configuration (`pip config list`), handed to
the build's RUN steps as a read-only `/etc/pip.conf` plus the local paths it names: nothing
about any package index is written into the repository. The base and buildah's storage are
cached under `.cache/image/` (gitignored), keyed by what goes into them.
Standard library only, like dev.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "image"
TAG = "metal3-dhcpless:dev"
BASE_PACKAGES = ("python3", "python3-venv", "python-is-python3", "passwd", "ca-certificates")
"""What the Containerfile needs of its base: `python` with venv, `groupadd`/`useradd`, CAs."""
TOOLS = {"mmdebstrap": "mmdebstrap", "buildah": "buildah", "umoci": "umoci"}
"""Command -> the Debian package that brings it."""
SOURCES = (Path("/etc/apt/sources.list"), Path("/etc/apt/sources.list.d"))


def _say(text: str) -> None:
    print(f"dev.py image: {text}", flush=True)


def _run(*args: str | os.PathLike[str], capture: bool = False) -> str:
    """Run a command; a failure stops the build naming the command."""
    argv = [os.fspath(a) for a in args]
    done = subprocess.run(argv, cwd=ROOT, text=True, capture_output=capture, check=False)
    if done.returncode:
        detail = (done.stderr or "").strip()[-2000:] if capture else ""
        sys.exit(f"dev.py image: {shlex.join(argv[:3])} ... failed ({done.returncode}) {detail}")
    return done.stdout if capture else ""


def ensure_tools() -> None:
    """Install the missing tools from Debian's packages (as root, with apt-get), else say which."""
    missing = sorted({pkg for cmd, pkg in TOOLS.items() if shutil.which(cmd) is None})
    if not missing:
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        sys.exit(f"dev.py image: needs {', '.join(missing)} (Debian packages); install them")
    _say(f"installing {' '.join(missing)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for argv in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *missing]):
        if subprocess.call(argv, env=env, stdout=subprocess.DEVNULL):
            sys.exit(f"dev.py image: {' '.join(argv[:2])} failed")


def _source_files() -> list[Path]:
    """This machine's apt source files (one-line and deb822), the mirror the base comes from."""
    files = [p for p in SOURCES if p.is_file()]
    if SOURCES[1].is_dir():
        files += sorted(p for p in SOURCES[1].iterdir() if p.suffix in (".list", ".sources"))
    return files


def _codename() -> str:
    for line in Path("/etc/os-release").read_text().splitlines():
        if line.startswith("VERSION_CODENAME="):
            return line.split("=", 1)[1].strip('"')
    sys.exit("dev.py image: /etc/os-release names no Debian release (VERSION_CODENAME)")


def base_tar() -> Path:
    """A Debian root file system tarball with `BASE_PACKAGES`, cached by its inputs."""
    sources = _source_files()
    key = hashlib.sha256(
        json.dumps([_codename(), BASE_PACKAGES, [p.read_text() for p in sources]]).encode()
    ).hexdigest()[:16]
    tar = CACHE / f"base-{_codename()}-{key}.tar"
    if tar.exists():
        return tar
    CACHE.mkdir(parents=True, exist_ok=True)
    for old in CACHE.glob("base-*.tar"):
        old.unlink()
    _say(f"making the Debian {_codename()} base (mmdebstrap)")
    partial = tar.with_suffix(".partial.tar")
    _run(
        "mmdebstrap", "--quiet", "--variant=essential", f"--include={','.join(BASE_PACKAGES)}",
        "--dpkgopt=path-exclude=/usr/share/doc/*", "--dpkgopt=path-exclude=/usr/share/man/*",
        "--dpkgopt=path-exclude=/usr/share/locale/*",
        _codename(), partial, *sources,
    )  # fmt: skip
    partial.rename(tar)
    return tar


def buildah(*args: str | os.PathLike[str], capture: bool = False) -> str:
    """buildah on the cache's own vfs storage: no daemon, no storage shared with the machine."""
    store = ("--root", CACHE / "storage", "--runroot", CACHE / "run", "--storage-driver", "vfs")
    return _run("buildah", *store, *args, capture=capture)


def base_image(tar: Path) -> str:
    """The base tarball as an image in buildah's storage (named after the tarball)."""
    name = f"localhost/dhcpless-base:{tar.stem.removeprefix('base-')}"
    if buildah("images", "--json", capture=True).count(f'"{name}"'):
        return name
    _say(f"importing the base as {name}")
    container = buildah("from", "--quiet", "scratch", capture=True).strip()
    buildah("add", "--quiet", container, tar, "/")
    buildah("config", "--env", "LANG=C.UTF-8", container)
    buildah("commit", "--quiet", "--rm", container, name, capture=True)
    return name


def _pip_config() -> tuple[str, list[Path]]:
    """This environment's pip settings as one pip.conf, and the local paths they name."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True, check=False
    )
    listed = done.stdout if done.returncode == 0 else ""  # no pip here: pip's own defaults
    settings: dict[str, str] = {}
    for line in listed.splitlines():
        scope_key, _, value = line.partition("=")
        scope, _, key = scope_key.rpartition(".")
        if scope in ("global", "install", ":env:") and key:
            settings[key] = value.strip().strip("'\"")
    paths = {
        # a local index's pages link to files beside them (`<root>/simple`, `<root>/files`)
        path.parent if key.endswith("index-url") else path
        for key, value in settings.items()
        for word in value.split()
        if word.startswith(("/", "file:///"))
        and (path := Path(word.removeprefix("file://"))).exists()
    }
    text = "[global]\n" + "".join(f"{k} = {v}\n" for k, v in sorted(settings.items()))
    return text, sorted(paths)


CONTEXT = ("Containerfile", ".containerignore", "pyproject.toml", "README.md", "shared",
           "functions", "deploy/gunicorn_conf.py")  # fmt: skip
"""What the build reads (the Containerfile's COPY sources, the ignore file): the cache's key."""
SKIPPED = ("__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".egg-info")


def _context_digest(*extra: str) -> str:
    """A digest of every file the build can read, plus `extra` (the base, the pip settings)."""
    digest = hashlib.sha256("\0".join(extra).encode())
    for top in CONTEXT:
        paths = [ROOT / top] if (ROOT / top).is_file() else sorted((ROOT / top).rglob("*"))
        for path in paths:
            if path.is_file() and not any(s in part for part in path.parts for s in SKIPPED):
                digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def build(out: Path) -> None:
    """Build the Containerfile on the base and write it to `out` as an OCI layout; a layout
    built from the very same inputs before is copied instead (as a layer cache would)."""
    ensure_tools()
    base = base_image(base_tar())
    conf, paths = _pip_config()
    built = CACHE / f"oci-{_context_digest(base, conf)}"
    if built.is_dir():
        _copy(built, out)
        _say(f"wrote {out} ({TAG}, unchanged inputs: cached)")
        return
    pip_conf = CACHE / "pip.conf"
    pip_conf.write_text(conf)
    volumes = [f"--volume={pip_conf}:/etc/pip.conf:ro"]
    volumes += [f"--volume={p}:{p}:ro" for p in paths]
    _say(f"building the Containerfile on {base}")
    buildah(
        "build", "--quiet", "--isolation", "chroot", "--layers=false", "--pull=never",
        "--build-arg", f"BASE={base}", *volumes, "-f", "Containerfile", "-t", TAG, ".",
    )  # fmt: skip
    for old in CACHE.glob("oci-*"):
        shutil.rmtree(old)
    buildah("push", "--quiet", TAG, f"oci:{built}:{TAG.split(':')[1]}")
    _copy(built, out)
    _say(f"wrote {out} ({TAG})")


def _copy(layout: Path, out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(layout, out)


def main(args: list[str]) -> int:
    if len(args) != 2 or args[0] != "--out":
        print("usage: dev.py image --out DIR", file=sys.stderr)
        return 2
    build(Path(args[1]).resolve())
    return 0
