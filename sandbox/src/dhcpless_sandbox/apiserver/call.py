"""One decoded resource request (`Call`) and what a verb answers (`Response`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

from dhcpless_sandbox.apiserver import proto_body
from dhcpless_sandbox.apiserver.admission import FieldValidation
from dhcpless_sandbox.apiserver.fieldmanager import ManagedOptions
from dhcpless_sandbox.apiserver.kinds import ResourceType
from dhcpless_sandbox.apiserver.request import RequestInfo
from dhcpless_sandbox.apiserver.status import bad_request

JSON = dict[str, Any]
DEFAULT_WATCH_SECONDS = 1800.0
TEXT_BODIES = ("", "application/json", "application/yaml", "*/*")


@dataclass
class Response:
    code: int
    body: JSON | None = None
    warnings: list[str] = field(default_factory=list)
    stream: Iterator[bytes] | None = None


@dataclass(frozen=True)
class Call:
    """One resource request, decoded."""

    info: RequestInfo
    rt: ResourceType
    content_type: str
    accept: str
    raw: bytes
    closed: Callable[[], bool]
    user_agent: str = ""

    @property
    def q(self) -> dict[str, str]:
        return self.info.query

    @property
    def media_type(self) -> str:
        return self.content_type.split(";")[0].strip().lower()

    def body(self) -> Any:
        """The decoded body; protobuf only for built-in kinds (CRs have no messages)."""
        if not self.raw:
            return None
        if self.media_type == proto_body.PROTOBUF:
            if self.rt.custom:
                raise proto_body.unsupported()
            return proto_body.decode(self.raw)
        if self.info.verb in ("create", "update") and self.media_type not in TEXT_BODIES:
            raise proto_body.unsupported()
        try:
            if "yaml" in self.media_type:
                return yaml.safe_load(self.raw)
            return json.loads(self.raw)
        except (ValueError, yaml.YAMLError) as error:
            raise bad_request(f"the request body could not be decoded: {error}") from None

    def options(self) -> ManagedOptions:
        dry = self.q.get("dryRun", "")
        if dry not in ("", "All"):
            raise bad_request(f'dryRun: Unsupported value: "{dry}": supported values: "All"')
        try:
            validation = FieldValidation(self.q.get("fieldValidation") or "Warn")
        except ValueError:
            raise bad_request("fieldValidation: must be one of Ignore, Warn, Strict") from None
        manager = self.q.get("fieldManager") or _agent_prefix(self.user_agent)
        return ManagedOptions(
            dry_run=dry == "All",
            field_validation=validation,
            field_manager=manager,
            force=self.q.get("force") == "true",
            subresource=self.info.subresource,
        )

    @property
    def namespace(self) -> str:
        return self.info.namespace if self.rt.namespaced else ""


def _agent_prefix(user_agent: str) -> str:
    """k8s.io/apiserver `handlers/create.go` `prefixFromUserAgent`: the manager of a write that
    names none is the User-Agent up to its first `/`, printable characters only, 128 at most."""
    return "".join(c for c in user_agent.split("/")[0] if c.isprintable())[:128]
