"""Link rules: every NIC has a usable MAC, and bond/VLAN/network references resolve.

What the ramdisk's glean needs decides the rules (CAPM3 itself accepts more):

* NICs (every type but bond and vlan) are matched to kernel interfaces by
  `ethernet_mac_address`, compared with the colon-separated form the kernel reports, so
  that key is required and must be `aa:bb:cc:dd:ee:ff` (any case). A bond needs it too
  (glean reads it unconditionally). A VLAN's `vlan_mac_address` is optional (glean then
  uses the parent's MAC) but must be well formed when present.
* References (`vlan_link`, `bond_links`, `networks[].link`) name a link **id**; glean
  and cloud-init index links by id, so a reference that only matches a link's `name`
  dangles for them and is reported as such. Bond ports must be NICs and a VLAN must sit
  on a NIC or a bond, the only parents glean resolves. Reference cycles are reported once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from dhcpless.keys import LinkKind, ValidationRule
from dhcpless.render.ipnet import mac_defect
from dhcpless.render.osdoc import OsDocument, OsLink
from dhcpless.render.problem import Problem

_REF = ValidationRule.LINK_REFERENCE
_PARENT_KINDS = {
    LinkKind.VLAN: (LinkKind.ETHERNET, LinkKind.BOND),
    LinkKind.BOND: (LinkKind.ETHERNET,),
}


def links_by_id(doc: OsDocument) -> dict[str, OsLink]:
    """The links keyed by id (the last one wins on duplicates, as in glean)."""
    return {link.id: link for link in doc.links}


def _mac_problem(link: OsLink, path: str) -> Problem | None:
    key = "vlan_mac_address" if link.kind is LinkKind.VLAN else "ethernet_mac_address"
    where = f'link "{link.id}" ({link.type})'
    if link.mac is None:
        if link.kind is LinkKind.VLAN:
            return None
        message = f"{where} has no {key}: glean matches NICs by MAC"
        return Problem(ValidationRule.LINK_MAC, message, f"{path}.{key}")
    defect = mac_defect(link.mac)
    message = f"{where}: {key} {defect}"
    return None if defect is None else Problem(ValidationRule.LINK_MAC, message, f"{path}.{key}")


def mac_problems(doc: OsDocument) -> Iterator[Problem]:
    """LINK_MAC: a missing or malformed MAC on any link that needs one."""
    for index, link in enumerate(doc.links):
        if (problem := _mac_problem(link, f"links[{index}]")) is not None:
            yield problem


def _dangling(ref: str, where: str, names: set[str | None], path: str) -> Problem:
    if ref in names:
        why = "matches a link name, but consumers resolve links by id"
        return Problem(_REF, f'{where} names link "{ref}", which {why}', path)
    return Problem(_REF, f'{where} names link "{ref}", which does not exist', path)


def _parent_problems(
    link: OsLink, links: Mapping[str, OsLink], names: set[str | None], path: str
) -> Iterator[Problem]:
    where = f'{link.kind} "{link.id}"'
    if link.kind is LinkKind.BOND and not link.bond_links:
        message = f"{where} has no bond_links: a bond needs at least one port"
        yield Problem(_REF, message, f"{path}.bond_links")
    for ref in link.parents:
        parent = links.get(ref)
        if parent is None:
            yield _dangling(ref, where, names, path)
        elif parent.kind not in _PARENT_KINDS[link.kind]:
            allowed = " or ".join(_PARENT_KINDS[link.kind])
            message = f'{where} is built on {parent.kind} "{ref}"; glean needs {allowed}'
            yield Problem(_REF, message, path)


def reference_problems(doc: OsDocument) -> Iterator[Problem]:
    """LINK_REFERENCE: duplicate ids, dangling or unsupported references (linear: the links
    by id and their names are indexed once)."""
    links = links_by_id(doc)
    names = {link.name for link in doc.links}
    seen: set[str] = set()
    for index, link in enumerate(doc.links):
        if link.id in seen:
            yield Problem(_REF, f'two links have id "{link.id}"', f"links[{index}].id")
        seen.add(link.id)
        if link.kind is not LinkKind.ETHERNET:
            yield from _parent_problems(link, links, names, f"links[{index}]")
    for index, net in enumerate(doc.networks):
        if net.link not in links:
            yield _dangling(net.link, f'network "{net.id}"', names, f"networks[{index}].link")


def _back_edges(links: Mapping[str, OsLink]) -> Iterator[tuple[str, ...]]:
    """Iterative depth-first search over parents; each back edge closes a cycle. `depth`
    indexes the current path, so a membership test costs O(1), not a scan of the path."""
    on_path: list[str] = []
    depth: dict[str, int] = {}
    done: set[str] = set()
    for root in links:
        if root in done:
            continue
        stack = [(root, iter(links[root].parents))]
        depth[root] = len(on_path)
        on_path.append(root)
        while stack:
            node, parents = stack[-1]
            parent = next(parents, None)
            if parent is None:
                stack.pop()
                del depth[on_path.pop()]
                done.add(node)
            elif parent in depth:
                yield (*on_path[depth[parent] :], parent)
            elif parent in links and parent not in done:
                depth[parent] = len(on_path)
                on_path.append(parent)
                stack.append((parent, iter(links[parent].parents)))


def cycle_problems(doc: OsDocument) -> Iterator[Problem]:
    """LINK_CYCLE: each cycle among vlan_link/bond_links references, reported once."""
    links = links_by_id(doc)
    reported: set[frozenset[str]] = set()
    for cycle in _back_edges(links):
        if frozenset(cycle) not in reported:
            reported.add(frozenset(cycle))
            chain = " -> ".join(f'"{ref}"' for ref in cycle)
            message = f"links refer to each other in a cycle: {chain}"
            yield Problem(ValidationRule.LINK_CYCLE, message, "links")
