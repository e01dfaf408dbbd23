"""The pure parts of issue 8's shorter paths (README "Performance").

Covers: the release patch writes no label; the light client configuration (kubeconfig with a
token, a token file re-read after `TOKEN_MAX_AGE`, in cluster, and anything else left to
`kubernetes.config`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from dhcpless import keys
from dhcpless.chain import patches
from dhcpless.chain.actions import ReleaseHost
from dhcpless.kube.transport import config
from dhcpless.kube.transport.kubeconfig import load
from dhcpless.refs import HostRef

TEMPLATE = "metal3datatemplates.infrastructure.cluster.x-k8s.io/ns/tmpl"
REF = HostRef("ns", "h", "uid")
NEW_LABELS = {keys.DONE_LABEL: keys.DONE_VALUE}


def test_release_patch_writes_no_label() -> None:
    """A host is never marked done (CAPM3 may borrow its claims after any re-provisioning),
    and a labels map written whole would drop labels added meanwhile (issue 14, finding 6)."""
    for set_name in (True, False):
        action = ReleaseHost(REF, "h-preprov-networkdata", set_name, "42")
        patch = patches.release_patch(action, "2026-01-01T00:00:00Z")
        assert [op for op in patch if "labels" in op["path"]] == []
        assert patch[0] == {
            "op": "test",
            "path": patches.PAUSE_PATH,
            "value": keys.PREPROVISIONING_PAUSE,
        }


def kubeconfig(tmp_path: Path, user: dict[str, Any], cluster: dict[str, Any]) -> Path:
    document = {
        "current-context": "c",
        "contexts": [{"name": "c", "context": {"cluster": "k", "user": "u"}}],
        "clusters": [{"name": "k", "cluster": cluster}],
        "users": [{"name": "u", "user": user}],
    }
    path = tmp_path / "config"
    path.write_text(yaml.safe_dump(document))
    return path


@pytest.mark.parametrize(
    ("user", "cluster", "light"),
    [
        pytest.param({"token": "t"}, {"server": "http://127.0.0.1:1"}, True, id="token"),
        pytest.param({"tokenFile": "tok"}, {"server": "https://k:6443"}, True, id="token-file"),
        pytest.param({"exec": {"command": "x"}}, {"server": "https://k:6443"}, False, id="exec"),
        pytest.param({"token": "t"}, {"server": "https://k", "certificate-authority-data": "eA=="},
                     False, id="embedded-ca"),
    ],
)  # fmt: skip
def test_kubeconfig_simple_shapes_only(
    tmp_path: Path, user: dict[str, Any], cluster: dict[str, Any], light: bool
) -> None:
    (tmp_path / "tok").write_text("from-file\n")
    found = config.from_document(load(kubeconfig(tmp_path, user, cluster)), "c")
    assert (found is not None) is light
    if found is not None:
        assert found.host == cluster["server"]
        assert found.get_api_key_with_prefix("BearerToken") in ("Bearer t", "Bearer from-file")


def test_in_cluster_reads_a_rotated_token_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "token").write_text("first")
    env = {"KUBERNETES_SERVICE_HOST": "10.96.0.1", "KUBERNETES_SERVICE_PORT": "443"}
    found = config.in_cluster(env, tmp_path)
    assert found.host == "https://10.96.0.1:443"
    assert found.ssl_ca_cert == str(tmp_path / "ca.crt")
    (tmp_path / "token").write_text("second")
    assert found.get_api_key_with_prefix("BearerToken") == "Bearer first"  # still fresh
    monkeypatch.setattr(config, "TOKEN_MAX_AGE", 0.0)
    assert found.get_api_key_with_prefix("BearerToken") == "Bearer second"


def test_not_in_a_cluster_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(OSError, match="not in a cluster"):
        config.in_cluster({}, tmp_path)
