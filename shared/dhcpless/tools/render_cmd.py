"""`dhcpless render`: render one host's network data from YAML files, offline.

Input is Kubernetes YAML (multi-document and `kind: List` allowed) holding the template
(Metal3DataTemplate v1beta1/v1beta2 or Metal3PreprovisioningDataTemplate), the
BareMetalHost and the IPAddress objects, matched to pools by `spec.pool.name`. The
output is the network_data JSON CAPM3 would write (`openstack`), or the same data as
nmstate YAML (`nmstate`, converted from that JSON); any problem is one line on stderr.
What the API server would refuse (`render_schema`: unknown fields, types, enums) and what the
functions would refuse (`render.validate`: dangling links, Ironic's rules, ...) is refused here
too, with the same message, so a template that renders here is one the chain accepts.
Data the ramdisk could not configure is refused as the functions refuse it
(`render.profiles`), for the ramdisk profile given by `--ramdisk-profile`, else the
template's annotation, else `DHCPLESS_RAMDISK_PROFILE`, else glean-el9.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import yaml

from dhcpless import keys
from dhcpless.models import BareMetalHost, IPAddress, ModelError, network_template_from_k8s
from dhcpless.models.netdata import NetworkData
from dhcpless.models.templates import NetworkTemplate
from dhcpless.render import Address, RenderError, pool_uses, referenced_pools
from dhcpless.render.nmstate import dump_nmstate, openstack_to_nmstate
from dhcpless.render.openstack import render_network_data
from dhcpless.render.osdoc import parse_rendered
from dhcpless.render.profiles.registry import UnknownProfile, choose_profile, ramdisk_problems
from dhcpless.tools import render_schema

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
FORMATS = ("openstack", "nmstate")
_TEMPLATE_KINDS = ("Metal3DataTemplate", "Metal3PreprovisioningDataTemplate")
Profiles = tuple[str | None, str | None]
"""The `--ramdisk-profile` flag and the environment's profile: first given wins (after the
flag, the template's annotation)."""


class InputError(ValueError):
    """The files do not hold what `render` needs."""


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise InputError(f"cannot read {path}: not a YAML text file (byte {err.start})") from err
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror or err}") from err


def _yaml_problem(path: Path, err: yaml.YAMLError) -> str:
    """`file:line:column: problem`, as PyYAML's marks give it (0-based there, 1-based here)."""
    if isinstance(err, yaml.reader.ReaderError):  # a control byte: a binary file
        char = chr(err.character) if isinstance(err.character, int) else err.character
        return f"cannot read {path}: not a YAML text file (character {char!r} at {err.position})"
    if isinstance(err, yaml.MarkedYAMLError) and err.problem_mark is not None:
        mark = err.problem_mark
        where = f"cannot read {path}:{mark.line + 1}:{mark.column + 1}"
        return f"{where}: malformed YAML: {err.problem or err.context or 'cannot parse'}"
    return f"cannot read {path}: malformed YAML: {str(err).splitlines()[0]}"


def _documents(path: Path) -> Iterator[Mapping[str, Any]]:
    try:
        loaded = list(yaml.safe_load_all(_text(path)))
    except yaml.YAMLError as err:
        raise InputError(_yaml_problem(path, err)) from err
    for doc in loaded:
        if isinstance(doc, Mapping) and doc.get("kind") == "List":
            yield from (item for item in doc.get("items") or () if isinstance(item, Mapping))
        elif isinstance(doc, Mapping):
            yield doc


def _one(docs: list[Mapping[str, Any]], kinds: Iterable[str], what: str) -> Mapping[str, Any]:
    found = [doc for doc in docs if doc.get("kind") in tuple(kinds)]
    if len(found) != 1:
        raise InputError(f"expected exactly one {what}, found {len(found)}")
    return found[0]


def _addresses(docs: list[Mapping[str, Any]]) -> dict[str, Address]:
    result: dict[str, Address] = {}
    for doc in (d for d in docs if d.get("kind") == "IPAddress"):
        ip = IPAddress.from_k8s(doc)
        pool = ip.spec.pool.name
        if pool in result:
            raise InputError(f'more than one IPAddress for pool "{pool}"')
        result[pool] = Address.from_ipaddress(ip)
    return result


def _check_pools(data: NetworkData, host: BareMetalHost, addresses: Mapping[str, Address]) -> None:
    referenced_pools(data, host)
    for use in pool_uses(data, host):
        if use.ref.name not in addresses:
            raise InputError(f'no IPAddress for pool "{use.ref.name}" (needed by {use.where})')


def _network_data(template: NetworkTemplate) -> NetworkData:
    if template.network_data is None:
        raise InputError(f"{template.kind} {template.metadata.name} has no network data to render")
    return template.network_data


def _admitted(doc: Mapping[str, Any]) -> Mapping[str, Any]:
    """`doc`, if the API server would accept it (`render_schema`), else its refusal."""
    schema = render_schema.schema_for(str(doc.get("apiVersion")), str(doc.get("kind")))
    refused = render_schema.refusal(doc, schema) if schema is not None else None
    if refused is not None:
        raise InputError(refused)
    return doc


def _held_by_its_bmc(host: BareMetalHost) -> None:
    """A host whose BMC boots by PXE never gets static data: the functions keep it paused."""
    from dhcpless.chain.decide import bmc

    held = bmc.refusal(bmc.address_of(host))
    if held is not None:
        raise InputError(f"the functions would keep this host paused: {held[1]}")


def _refused_by_the_chain(rendered: Mapping[str, Any], host: BareMetalHost) -> None:
    """The functions' own rules (`render.validate`), which would keep the host paused."""
    from dhcpless.render.validate import validate_network_data

    # The ramdisk's rules are judged by `_judge`, for the profile this render was asked for.
    problems = validate_network_data(rendered, host, profile=keys.RamdiskProfile.NMSTATE)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InputError(f"the functions would refuse this network data: {problems[0]}{more}")


def _render(files: list[Path], fmt: str, profiles: Profiles | None) -> str:
    """`profiles`: the `--ramdisk-profile` flag and the environment's (None: not judged)."""
    docs = [doc for path in files for doc in _documents(path)]
    raw_template = _admitted(_one(docs, _TEMPLATE_KINDS, "template"))
    template = network_template_from_k8s(raw_template)
    host = BareMetalHost.from_k8s(_admitted(_one(docs, ("BareMetalHost",), "BareMetalHost")))
    _held_by_its_bmc(host)
    addresses = _addresses(docs)
    data = _network_data(template)
    _check_pools(data, host, addresses)
    rendered = render_network_data(data, host, addresses)
    if rendered is not None:
        _refused_by_the_chain(rendered, host)
        if profiles is not None:
            _judge(rendered, raw_template, profiles)
    if fmt == "nmstate" and rendered is not None:
        return dump_nmstate(openstack_to_nmstate(rendered))
    return json.dumps(rendered, indent=2)


def _judge(rendered: Mapping[str, Any], template: Mapping[str, Any], profiles: Profiles) -> None:
    """Refuse what the chosen ramdisk could not configure, as the functions do."""
    annotations = (template.get("metadata") or {}).get("annotations") or {}
    flag, env = profiles
    profile = choose_profile(flag, annotations.get(keys.RAMDISK_PROFILE_ANNOTATION), env)
    refused = ramdisk_problems(parse_rendered(rendered), profile)
    if refused:
        more = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
        raise InputError(f"{refused[0]}{more}")


def run_render(
    template_file: Path,
    host_file: Path,
    addresses_file: Path | None,
    fmt: str = "openstack",
    profiles: Profiles | None = None,
) -> tuple[int, str, str]:
    """(exit code, stdout text, one stderr line) for `dhcpless render`; `profiles`: the
    `--ramdisk-profile` flag and `DHCPLESS_RAMDISK_PROFILE` (each None: not given), as the
    command passes them; None (a library caller) renders without the ramdisk rules."""
    if fmt not in FORMATS:
        return EXIT_USAGE, "", f"render: unknown format {fmt!r} (choose from {', '.join(FORMATS)})"
    given = [template_file, host_file, *([addresses_file] if addresses_file else [])]
    files = list(dict.fromkeys(given))  # one file may hold everything
    try:
        return EXIT_OK, _render(files, fmt, profiles), ""
    except (InputError, ModelError, RenderError, UnknownProfile) as err:
        return EXIT_FAILED, "", f"render: {err}"
