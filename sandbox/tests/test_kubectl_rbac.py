"""The sandbox against kubectl where people start: `cluster-info`, `create token`, and RBAC
that `auth can-i --as` tells the truth about (Roles and bindings created in the sandbox,
enforced for every identity but the admin, `rbac_live.LiveAuthorizer`), plus
SubjectAccessReview from the same rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from kubernetes import client

from dhcpless_sandbox.apiserver.rbac_live import LiveAuthorizer
from dhcpless_sandbox.apiserver.server import SandboxServer

from .kubectl_helpers import Run, ok, runner

pytestmark = pytest.mark.kubectl
JANE = "--as=jane"


@pytest.fixture
def kubectl(sandbox: SandboxServer, tmp_path: Path) -> Run:
    sandbox.authorize = LiveAuthorizer(sandbox.store)
    return runner(sandbox, tmp_path)


def _can_i(kubectl: Run, *args: str) -> tuple[str, int]:
    said = kubectl("auth", "can-i", *args)
    return said.stdout.strip(), said.returncode


def test_cluster_info_names_the_control_plane(sandbox: SandboxServer, kubectl: Run) -> None:
    said = ok(kubectl("cluster-info"))
    assert f"Kubernetes control plane is running at {sandbox.url}" in said
    assert ok(kubectl("get", "services", "-A")) == ""  # served, and empty (no proxy here)


def test_auth_can_i_as_a_user_follows_the_roles_created(kubectl: Run) -> None:
    assert _can_i(kubectl, "get", "secrets", JANE) == ("no", 1)  # nothing grants it yet
    assert "Forbidden" in kubectl("get", "secrets", JANE).stderr
    ok(kubectl("create", "role", "reader", "--verb=get,list", "--resource=secrets"))
    ok(kubectl("create", "rolebinding", "jane-reads", "--role=reader", "--user=jane"))
    assert _can_i(kubectl, "get", "secrets", JANE) == ("yes", 0)
    assert _can_i(kubectl, "delete", "secrets", JANE) == ("no", 1)
    assert _can_i(kubectl, "get", "secrets", "-n", "other", JANE) == ("no", 1)  # a Role's scope
    assert kubectl("get", "secrets", JANE).returncode == 0  # can-i told the truth
    rules = ok(kubectl("auth", "can-i", "--list", JANE)).splitlines()
    assert ["secrets", "[]", "[]", "[get", "list]"] in [line.split() for line in rules]
    assert _can_i(kubectl, "get", "secrets") == ("yes", 0)  # the admin


def _configmaps_as(sandbox: SandboxServer, token: str) -> int:
    """Status of listing ConfigMaps with `token` (through the python client: kubectl sends no
    bearer token to a plain-HTTP server, which is what the sandbox is)."""
    with sandbox.api_client(token) as api:
        try:
            client.CoreV1Api(api).list_namespaced_config_map("default")
        except client.ApiException as err:
            assert "system:serviceaccount:default:bot" in str(err.body)
            return int(err.status)
    return 200


def test_create_token_gives_a_service_account_its_own_rights(
    sandbox: SandboxServer, kubectl: Run
) -> None:
    ok(kubectl("create", "serviceaccount", "bot"))
    token = ok(kubectl("create", "token", "bot", "--duration=1h")).strip()
    assert _configmaps_as(sandbox, token) == 403
    ok(kubectl("create", "clusterrole", "cm-reader", "--verb=list", "--resource=configmaps"))
    ok(
        kubectl(
            "create", "clusterrolebinding", "bots", "--clusterrole=cm-reader",
            "--group=system:serviceaccounts",
        )
    )  # fmt: skip
    assert _configmaps_as(sandbox, token) == 200
    as_bot = "--as=system:serviceaccount:default:bot"
    assert _can_i(kubectl, "list", "configmaps", as_bot) == ("yes", 0)
    missing = kubectl("create", "token", "nobody")
    assert 'serviceaccounts "nobody" not found' in missing.stderr
    short = kubectl("create", "token", "bot", "--duration=1m")
    assert "may not specify a duration less than 10 minutes" in short.stderr


def _review(api: Any, user: str, verb: str) -> bool:
    body = client.V1SubjectAccessReview(
        spec=client.V1SubjectAccessReviewSpec(
            user=user,
            resource_attributes=client.V1ResourceAttributes(
                verb=verb, resource="secrets", namespace="default"
            ),
        )
    )
    answer = client.AuthorizationV1Api(api).create_subject_access_review(body)
    assert answer.status is not None
    return bool(answer.status.allowed)


def test_subject_access_review_answers_from_the_same_rules(
    sandbox: SandboxServer, kubectl: Run
) -> None:
    with sandbox.api_client() as api:
        assert not _review(api, "jane", "get")
        ok(kubectl("create", "role", "reader", "--verb=get", "--resource=secrets"))
        ok(kubectl("create", "rolebinding", "jane-reads", "--role=reader", "--user=jane"))
        assert (_review(api, "jane", "get"), _review(api, "jane", "delete")) == (True, False)
    sandbox.add_token("jane-token", "jane")
    with sandbox.api_client("jane-token") as api, pytest.raises(client.ApiException) as refused:
        _review(api, "jane", "get")  # jane may not ask about others
    assert refused.value.status == 403
    headers = {"Impersonate-User": "admin"}
    with sandbox.api_client("jane-token") as api, pytest.raises(client.ApiException) as posing:
        client.CoreV1Api(api).list_namespaced_secret("default", _headers=headers)
    assert posing.value.status == 403 and "cannot impersonate" in str(posing.value.body)
