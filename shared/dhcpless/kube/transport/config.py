"""The client's `Configuration` without `kubernetes.config`, whose import costs a cold start
about 0.25 s (it pulls in requests and OAuth libraries, README "Performance").

* **In cluster** (what a pod uses): `KUBERNETES_SERVICE_HOST/PORT`, the service account's CA
  and token. The token file is projected and rotated by the kubelet, so it is re-read when the
  copy in memory is older than `TOKEN_MAX_AGE` (the client calls `refresh_api_key_hook` before
  every request).
* **A kubeconfig** (`KUBECONFIG`'s files merged as kubectl merges them, else `~/.kube/config`:
  `kube.transport.kubeconfig`; development, `dhcpless serve`, `dhcpless status`): the chosen
  context's
  server, CA or `insecure-skip-tls-verify`, and a `token` / `tokenFile` are read here; anything
  else (client certificates, exec or auth-provider plugins) is left to
  `kubernetes.config.load_kube_config`, imported only then.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kubernetes.client import Configuration

from dhcpless.kube.transport import kubeconfig

SERVICE_ACCOUNT = Path("/var/run/secrets/kubernetes.io/serviceaccount")
TOKEN_MAX_AGE = 60.0
"""Seconds; projected tokens live an hour at least and are renewed at 80 % of their life."""
SIMPLE_USER = frozenset({"token", "tokenFile"})


def configuration(
    env: Mapping[str, str] = os.environ, explicit: str | None = None, context: str | None = None
) -> Configuration:
    """From the kubeconfig files kubectl would read (`kube.transport.kubeconfig`: `KUBECONFIG`
    merged, or `explicit`), else in cluster; `context` overrides the files' current context."""
    files = kubeconfig.paths(env, explicit)
    if not files:
        if context:
            raise kubeconfig.KubeconfigError(f"--context {context}: no kubeconfig to look in")
        try:
            return in_cluster(env)
        except OSError as err:  # say where a kubeconfig was looked for, too
            where = "KUBECONFIG is not set and ~/.kube/config does not exist"
            raise kubeconfig.KubeconfigError(f"no kubeconfig ({where}) and {err}") from None
    document = kubeconfig.merged(files)
    chosen = _context(document, files, context)
    return from_document(document, chosen) or _full_kubeconfig(files, chosen)


def _context(document: Mapping[str, Any], files: tuple[Path, ...], wanted: str | None) -> str:
    names = {e.get("name") for e in document.get("contexts") or []}
    where = os.pathsep.join(str(f) for f in files)
    chosen = wanted or document.get("current-context")
    if not chosen:
        raise kubeconfig.KubeconfigError(f"kubeconfig {where} sets no current-context (--context)")
    if chosen not in names:
        raise kubeconfig.KubeconfigError(f'context "{chosen}" not found in kubeconfig {where}')
    return str(chosen)


def in_cluster(
    env: Mapping[str, str] = os.environ, account: Path = SERVICE_ACCOUNT
) -> Configuration:
    host, port = env.get("KUBERNETES_SERVICE_HOST"), env.get("KUBERNETES_SERVICE_PORT")
    if not host or not port or not (account / "token").is_file():
        raise OSError("not in a cluster: no service host/port or service-account token")
    config = Configuration(host=f"https://{_bracketed(host)}:{port}")
    config.ssl_ca_cert = str(account / "ca.crt")
    _token_from(config, account / "token")
    return config


def from_document(document: Mapping[str, Any], name: object) -> Configuration | None:
    """The simple shapes of a (merged) kubeconfig's context `name`; local paths are
    absolute already (`kubeconfig.load`)."""
    context = _named(document, "contexts", name)
    cluster = _named(document, "clusters", context.get("cluster"))
    user = _named(document, "users", context.get("user"))
    if (
        not cluster.get("server")
        or not set(user) <= SIMPLE_USER
        or "certificate-authority-data" in cluster
    ):
        return None
    config = Configuration(host=cluster["server"])
    config.verify_ssl = not cluster.get("insecure-skip-tls-verify", False)
    if cluster.get("certificate-authority"):
        config.ssl_ca_cert = str(cluster["certificate-authority"])
    if "tokenFile" in user:
        _token_from(config, Path(user["tokenFile"]))
    elif "token" in user:
        config.api_key = {"BearerToken": user["token"]}
        config.api_key_prefix = {"BearerToken": "Bearer"}
    return config


def _named(document: Mapping[str, Any], section: str, name: object) -> dict[str, Any]:
    key = section[:-1]  # contexts -> context
    for entry in document.get(section) or []:
        if entry.get("name") == name:
            found: dict[str, Any] = entry.get(key) or {}
            return found
    return {}


def _token_from(config: Configuration, token_file: Path) -> None:
    """Bearer token from a file, re-read once older than `TOKEN_MAX_AGE`."""
    read_at = [float("-inf")]

    def refresh(target: Configuration) -> None:
        if time.monotonic() - read_at[0] >= TOKEN_MAX_AGE:
            target.api_key = {"BearerToken": token_file.read_text().strip()}
            target.api_key_prefix = {"BearerToken": "Bearer"}
            read_at[0] = time.monotonic()

    refresh(config)
    config.refresh_api_key_hook = refresh  # type: ignore[assignment]  # typed as None


def _full_kubeconfig(files: tuple[Path, ...], context: str) -> Configuration:
    from kubernetes import config as k8s_config  # heavy: only when needed

    target = Configuration()
    joined = os.pathsep.join(str(f) for f in files)  # the client merges a list as kubectl does
    k8s_config.load_kube_config(config_file=joined, context=context, client_configuration=target)  # type: ignore[no-untyped-call]
    return target


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host
