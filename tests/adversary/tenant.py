"""The attacker: a namespace user with named rights, enforced by the sandbox's RBAC.

Threat model (issue 24): anyone who may create Secrets, annotate hosts or create IPPools in a
served namespace (a tenant, a GitOps tool, a mistaken script). The tenant is a ServiceAccount
whose Role grants exactly the `rules` a test names; every request it makes goes through the
sandbox's authorizer (`dhcpless_sandbox.apiserver.rbac`), so an attack that needs a right the
test did not name fails as Forbidden, not silently. The functions' own identities are not
ServiceAccounts here and are not checked (their Roles are held to their code elsewhere).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from kubernetes import client as k8s

from dhcpless import keys
from dhcpless_sandbox.apiserver import rbac
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import objects, scenario

Obj = dict[str, Any]
NAME = "tenant"
TOKEN = "tenant-token"

READ_HOSTS: Obj = {"apiGroups": [keys.BMO_GROUP], "resources": ["baremetalhosts"],
                   "verbs": ["get", "list"]}  # fmt: skip
"""What anyone who may look at hosts has: enough to read a host's UID."""
WRITE_SECRETS: Obj = {"apiGroups": [""], "resources": ["secrets"],
                      "verbs": ["create", "get", "list", "update"]}  # fmt: skip
"""Any namespace user who manages Secrets (a GitOps tool, a script)."""
DELETE_SECRETS: Obj = {"apiGroups": [""], "resources": ["secrets"], "verbs": ["get", "delete"]}
"""A mistaken clean-up script."""
ANNOTATE_HOSTS: Obj = {"apiGroups": [keys.BMO_GROUP], "resources": ["baremetalhosts"],
                       "verbs": ["get", "list", "patch"]}  # fmt: skip
"""Anyone who may annotate hosts (`kubectl annotate bmh`)."""
DELETE_CLAIMS: Obj = {"apiGroups": [keys.IPAM_GROUP], "resources": ["ipclaims"],
                      "verbs": ["get", "list", "delete"]}  # fmt: skip
"""A namespace user who cleans up IPAM objects (a mistaken script)."""
CREATE_POOLS: Obj = {"apiGroups": [keys.IPAM_GROUP], "resources": ["ippools"],
                     "verbs": ["create", "get", "list"]}  # fmt: skip
"""A tenant who runs its own IPAM pools in its namespace (the cluster-wide layout)."""
APPLY_HOSTS: Obj = {"apiGroups": [keys.BMO_GROUP], "resources": ["baremetalhosts"],
                    "verbs": ["create", "get", "list", "patch", "update"]}  # fmt: skip
"""A GitOps tool that owns the host manifests (server-side apply, `kubectl replace`)."""
APPLY = "application/apply-patch+yaml"


@dataclass(frozen=True)
class Tenant:
    """A client acting as the tenant, and the API it uses."""

    api: k8s.ApiClient
    namespace: str = objects.NS

    @property
    def core(self) -> k8s.CoreV1Api:
        return k8s.CoreV1Api(self.api)

    @property
    def custom(self) -> k8s.CustomObjectsApi:
        return k8s.CustomObjectsApi(self.api)

    def host(self, name: str) -> Obj:
        found = self.custom.get_namespaced_custom_object(
            keys.BMO_GROUP, keys.BMO_VERSION, self.namespace, "baremetalhosts", name
        )
        assert isinstance(found, dict)
        return found

    def secret(self, name: str) -> Obj:
        """One Secret as the API returns it (the data stays base64, as `kubectl get` shows)."""
        read = self.core.read_namespaced_secret(name, self.namespace)
        raw: Obj = self.api.sanitize_for_serialization(read)  # type: ignore[no-untyped-call]
        return raw

    def create(self, obj: Obj) -> None:
        scenario.create(self.api, obj)

    def annotate_host(self, name: str, annotations: dict[str, str | None]) -> None:
        """A merge patch of annotations (None removes one, as `kubectl annotate key-`)."""
        self.custom.patch_namespaced_custom_object(
            keys.BMO_GROUP, keys.BMO_VERSION, self.namespace, "baremetalhosts", name,
            {"metadata": {"annotations": annotations}},
        )  # fmt: skip

    def replace_host(self, body: Obj) -> None:
        """A PUT of the whole host (`kubectl replace`, Argo CD `Replace=true`)."""
        self.custom.replace_namespaced_custom_object(
            keys.BMO_GROUP, keys.BMO_VERSION, self.namespace, "baremetalhosts",
            body["metadata"]["name"], body,
        )  # fmt: skip

    def apply_host(self, manifest: Obj, manager: str = "gitops") -> None:
        """A server-side apply of `manifest` as field manager `manager` (`kubectl apply
        --server-side`, Argo CD, Flux): fields it applied before and leaves out are removed."""
        self.custom.patch_namespaced_custom_object(
            keys.BMO_GROUP, keys.BMO_VERSION, self.namespace, "baremetalhosts",
            manifest["metadata"]["name"], manifest, field_manager=manager, force=True,
            _content_type=APPLY,
        )  # fmt: skip

    def delete_secret(self, name: str) -> None:
        self.core.delete_namespaced_secret(name, self.namespace)

    def delete_claim(self, name: str) -> None:
        self.custom.delete_namespaced_custom_object(
            keys.IPAM_GROUP, keys.IPAM_VERSION, self.namespace, "ipclaims", name
        )


def _role(rules: list[Obj], namespace: str) -> list[Obj]:
    meta = {"name": NAME, "namespace": namespace}
    subject = {"kind": "ServiceAccount", "name": NAME, "namespace": namespace}
    return [
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": meta,
         "rules": rules},
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": meta,
         "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": NAME},
         "subjects": [subject]},
    ]  # fmt: skip


@contextmanager
def acting(sandbox: SandboxServer, *rules: Obj, namespace: str = objects.NS) -> Iterator[Tenant]:
    """The tenant, allowed exactly `rules` in `namespace` (default: the test namespace). Only
    the tenant's requests are judged by its Role; everyone else's as before (a world's own
    enforced RBAC for its functions and sources stays)."""
    mine, before = rbac.Authorizer(_role(list(rules), namespace)), sandbox.authorize
    who = rbac.service_account(namespace, NAME)
    sandbox.authorize = lambda info: mine(info) if info.identity == who else before(info)
    sandbox.add_token(TOKEN, who)
    with sandbox.api_client(token=TOKEN) as api:
        yield Tenant(api, namespace)


def forged_secret(host: Obj, copied: Obj) -> Obj:
    """A Secret under `host`'s default name with our labels and an ownerReference carrying its
    UID (read from the host), holding the data and format of another Secret (`copied`)."""
    meta = host["metadata"]
    owner = {"apiVersion": host["apiVersion"], "kind": host["kind"], "name": meta["name"],
             "uid": meta["uid"]}  # fmt: skip
    annotations = {
        k: v
        for k, v in (copied["metadata"].get("annotations") or {}).items()
        if k == keys.NETWORK_DATA_FORMAT_ANNOTATION
    }
    labels = {keys.HOST_LABEL: meta["name"], keys.HOST_NAMESPACE_LABEL: meta["namespace"],
              keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE}  # fmt: skip
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {
            "name": meta["name"] + keys.SECRET_NAME_SUFFIX,
            "namespace": meta["namespace"],
            "labels": labels,
            "annotations": annotations,
            "ownerReferences": [owner],
        },
        "type": "Opaque",
        "data": dict(copied["data"]),
    }
